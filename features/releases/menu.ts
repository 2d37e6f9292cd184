import AppsOutlined from '@mui/icons-material/AppsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The admin's app releases. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'admin',
    key: 'appReleases',
    path: '/admin/app-releases',
    icon: AppsOutlined,
    order: 80,
    label: {
      en: 'App releases',
      de: 'App-Versionen',
      es: 'Versiones de apps',
      it: 'Versioni delle app',
    },
  },
];
