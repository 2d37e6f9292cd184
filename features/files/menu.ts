import FolderOutlined from '@mui/icons-material/FolderOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const fileManager = {
  key: 'fileManager',
  label: {
    en: 'File Manager',
    de: 'Dateimanager',
    es: 'Administrador de archivos',
    it: 'File manager',
  },
};

/** The file manager of a web app. */
export const menu: MenuDeclaration[] = [
  { ...fileManager, menu: 'webApp', path: '/file-manager', icon: FolderOutlined, order: 30 },
  { ...fileManager, menu: 'appMini', path: '/file-manager', icon: FolderOutlined, order: 30 },
];
