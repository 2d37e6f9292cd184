import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The services of a server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'services',
    path: '/services',
    icon: TuneOutlined,
    order: 100,
    label: { en: 'Services', de: 'Dienste', es: 'Servicios', it: 'Servizi' },
  },
];
