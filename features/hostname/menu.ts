import LanOutlined from '@mui/icons-material/LanOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The host name of a server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'hostname',
    path: '/hostname',
    icon: LanOutlined,
    order: 110,
    label: { en: 'Hostname', de: 'Hostname', es: 'Nombre de host', it: 'Nome host' },
  },
];
