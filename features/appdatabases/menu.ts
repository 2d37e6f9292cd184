import StorageOutlined from '@mui/icons-material/StorageOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The databases a web app uses. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'appDatabases',
    path: '/app-database-list',
    icon: StorageOutlined,
    order: 80,
    label: { en: 'Databases', de: 'Datenbanken', es: 'Bases de datos', it: 'Database' },
  },
];
