import StorageOutlined from '@mui/icons-material/StorageOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The databases: across the servers (main sidebar) and of one server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'main',
    key: 'databases',
    path: '/database-list',
    icon: StorageOutlined,
    order: 40,
    label: { en: 'Databases', de: 'Datenbanken', es: 'Bases de datos', it: 'Database' },
  },
  {
    menu: 'server',
    key: 'databases',
    path: '/database-list',
    icon: StorageOutlined,
    order: 50,
    label: { en: 'Databases', de: 'Datenbanken', es: 'Bases de datos', it: 'Database' },
  },
];
