import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The server's firewall and attempt limits (its Security page). */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'security',
    path: '/security',
    icon: SecurityOutlined,
    order: 90,
    label: { en: 'Security', de: 'Sicherheit', es: 'Seguridad', it: 'Sicurezza' },
  },
];
