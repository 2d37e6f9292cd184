import ArrowBack from '@mui/icons-material/ArrowBack';
import WebOutlined from '@mui/icons-material/WebOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const wordpressManager = {
  key: 'wordpressManager',
  label: {
    en: 'WordPress Manager',
    de: 'WordPress-Manager',
    es: 'Gestor de WordPress',
    it: 'Gestore WordPress',
  },
};

/**
 * WordPress apps get the WordPress manager where other apps get the app summary (spec section
 * 2), in the full and the mini web-app sidebars.
 */
export const menu: MenuDeclaration[] = [
  {
    ...wordpressManager,
    menu: 'webApp',
    path: '/wordpress-manager',
    icon: WebOutlined,
    order: 10,
    onlyFor: 'wordpress',
    replaces: 'accountSummary',
  },
  {
    ...wordpressManager,
    menu: 'appMini',
    path: '/wordpress-manager',
    icon: ArrowBack,
    order: 10,
    back: true,
    onlyFor: 'wordpress',
    replaces: 'accountSummary',
  },
];
