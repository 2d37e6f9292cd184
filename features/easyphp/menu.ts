import CodeOutlined from '@mui/icons-material/CodeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const easyPhp = {
  key: 'easyPhp',
  label: { en: 'EasyPHP', de: 'EasyPHP', es: 'EasyPHP', it: 'EasyPHP' },
};

/** EasyPHP: across the servers, of one server, and the admin's extension catalogue. */
export const menu: MenuDeclaration[] = [
  { ...easyPhp, menu: 'main', path: '/easyphp', icon: CodeOutlined, order: 50 },
  { ...easyPhp, menu: 'server', path: '/easy-php', icon: CodeOutlined, order: 70 },
  {
    menu: 'admin',
    key: 'phpManagement',
    path: '/admin/php-management',
    icon: CodeOutlined,
    order: 70,
    label: { en: 'EasyPHP', de: 'EasyPHP', es: 'EasyPHP', it: 'EasyPHP' },
  },
];
