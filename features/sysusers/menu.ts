import PeopleOutline from '@mui/icons-material/PeopleOutline';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The system users of a server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'systemUsers',
    path: '/system-users',
    icon: PeopleOutline,
    order: 120,
    label: {
      en: 'System Users',
      de: 'Systembenutzer',
      es: 'Usuarios del sistema',
      it: 'Utenti di sistema',
    },
  },
];
