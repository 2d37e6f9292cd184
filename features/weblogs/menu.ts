import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const webServerLog = {
  key: 'webServerLog',
  label: {
    en: 'Web Server Log',
    de: 'Webserver-Protokoll',
    es: 'Registro del servidor web',
    it: 'Log del server web',
  },
};

/** The web server log of a web app. */
export const menu: MenuDeclaration[] = [
  {
    ...webServerLog,
    menu: 'webApp',
    path: '/web-server-log',
    icon: ReceiptLongOutlined,
    order: 110,
  },
  {
    ...webServerLog,
    menu: 'appMini',
    path: '/web-server-log',
    icon: ReceiptLongOutlined,
    order: 80,
  },
];
