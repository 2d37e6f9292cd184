import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const git = { key: 'git', label: { en: 'Git', de: 'Git', es: 'Git', it: 'Git' } };

/** Git deploys of a web app. */
export const menu: MenuDeclaration[] = [
  { ...git, menu: 'webApp', path: '/git', icon: AccountTreeOutlined, order: 20 },
  { ...git, menu: 'appMini', path: '/git', icon: AccountTreeOutlined, order: 20 },
];
