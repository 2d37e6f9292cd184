import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const ftpAccounts = {
  key: 'ftpAccounts',
  label: { en: 'FTP Accounts', de: 'FTP-Konten', es: 'Cuentas FTP', it: 'Account FTP' },
};

/** The FTP accounts of a web app. */
export const menu: MenuDeclaration[] = [
  {
    ...ftpAccounts,
    menu: 'webApp',
    path: '/ftp-accounts',
    icon: DriveFolderUploadOutlined,
    order: 40,
  },
  {
    ...ftpAccounts,
    menu: 'appMini',
    path: '/ftp-accounts',
    icon: DriveFolderUploadOutlined,
    order: 40,
  },
];
