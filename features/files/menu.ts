import FolderOutlined from '@mui/icons-material/FolderOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The file manager of a web app. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'fileManager',
    path: '/file-manager',
    icon: FolderOutlined,
    order: 30,
    label: {
      en: 'File Manager',
      de: 'Dateimanager',
      es: 'Administrador de archivos',
      it: 'File manager',
    },
  },
  {
    menu: 'appMini',
    key: 'fileManager',
    path: '/file-manager',
    icon: FolderOutlined,
    order: 30,
    label: {
      en: 'File Manager',
      de: 'Dateimanager',
      es: 'Administrador de archivos',
      it: 'File manager',
    },
  },
];
