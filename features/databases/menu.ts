import StorageOutlined from '@mui/icons-material/StorageOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const databases = {
  key: 'databases',
  label: { en: 'Databases', de: 'Datenbanken', es: 'Bases de datos', it: 'Database' },
};

/** The databases: across the servers (main sidebar) and of one server. */
export const menu: MenuDeclaration[] = [
  { ...databases, menu: 'main', path: '/database-list', icon: StorageOutlined, order: 40 },
  { ...databases, menu: 'server', path: '/database-list', icon: StorageOutlined, order: 50 },
];
