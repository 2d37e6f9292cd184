import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Alerts: their history and their settings, in the profile sidebar after the spec's entries. */
export const menu: MenuDeclaration[] = [
  {
    key: 'alerts',
    label: { en: 'Alerts', de: 'Warnungen', es: 'Alertas', it: 'Avvisi' },
    menu: 'profile',
    path: '/alerts',
    icon: NotificationsActiveOutlined,
    order: 100,
  },
  {
    key: 'alertSettings',
    label: {
      en: 'Alert Settings',
      de: 'Warnungseinstellungen',
      es: 'Ajustes de alertas',
      it: 'Impostazioni avvisi',
    },
    menu: 'profile',
    path: '/alert-settings',
    icon: TuneOutlined,
    order: 110,
  },
];
