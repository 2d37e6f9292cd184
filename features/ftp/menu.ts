import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The FTP accounts of a web app. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'ftpAccounts',
    path: '/ftp-accounts',
    icon: DriveFolderUploadOutlined,
    order: 40,
    label: { en: 'FTP Accounts', de: 'FTP-Konten', es: 'Cuentas FTP', it: 'Account FTP' },
  },
  {
    menu: 'appMini',
    key: 'ftpAccounts',
    path: '/ftp-accounts',
    icon: DriveFolderUploadOutlined,
    order: 40,
    label: { en: 'FTP Accounts', de: 'FTP-Konten', es: 'Cuentas FTP', it: 'Account FTP' },
  },
];
