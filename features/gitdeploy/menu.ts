import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Git deploys of a web app. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'git',
    path: '/git',
    icon: AccountTreeOutlined,
    order: 20,
    label: { en: 'Git', de: 'Git', es: 'Git', it: 'Git' },
  },
  {
    menu: 'appMini',
    key: 'git',
    path: '/git',
    icon: AccountTreeOutlined,
    order: 20,
    label: { en: 'Git', de: 'Git', es: 'Git', it: 'Git' },
  },
];
