import ArrowBack from '@mui/icons-material/ArrowBack';
import WebOutlined from '@mui/icons-material/WebOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/**
 * WordPress apps get the WordPress manager where other apps get the app summary (spec section
 * 2), in the full and the mini web-app sidebars.
 */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'wordpressManager',
    path: '/wordpress-manager',
    icon: WebOutlined,
    order: 10,
    onlyFor: 'wordpress',
    replaces: 'accountSummary',
    label: {
      en: 'WordPress Manager',
      de: 'WordPress-Manager',
      es: 'Gestor de WordPress',
      it: 'Gestore WordPress',
    },
  },
  {
    menu: 'appMini',
    key: 'wordpressManager',
    path: '/wordpress-manager',
    icon: ArrowBack,
    order: 10,
    back: true,
    onlyFor: 'wordpress',
    replaces: 'accountSummary',
    label: {
      en: 'WordPress Manager',
      de: 'WordPress-Manager',
      es: 'Gestor de WordPress',
      it: 'Gestore WordPress',
    },
  },
];
