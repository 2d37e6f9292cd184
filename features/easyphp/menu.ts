import CodeOutlined from '@mui/icons-material/CodeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** EasyPHP: across the servers, of one server, and the admin's extension catalogue. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'main',
    key: 'easyPhp',
    path: '/easyphp',
    icon: CodeOutlined,
    order: 50,
    label: { en: 'EasyPHP', de: 'EasyPHP', es: 'EasyPHP', it: 'EasyPHP' },
  },
  {
    menu: 'server',
    key: 'easyPhp',
    path: '/easy-php',
    icon: CodeOutlined,
    order: 70,
    label: { en: 'EasyPHP', de: 'EasyPHP', es: 'EasyPHP', it: 'EasyPHP' },
  },
  {
    menu: 'admin',
    key: 'phpManagement',
    path: '/admin/php-management',
    icon: CodeOutlined,
    order: 70,
    label: { en: 'EasyPHP', de: 'EasyPHP', es: 'EasyPHP', it: 'EasyPHP' },
  },
];
