import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The web server log of a web app. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'webServerLog',
    path: '/web-server-log',
    icon: ReceiptLongOutlined,
    order: 110,
    label: {
      en: 'Web Server Log',
      de: 'Webserver-Protokoll',
      es: 'Registro del servidor web',
      it: 'Log del server web',
    },
  },
  {
    menu: 'appMini',
    key: 'webServerLog',
    path: '/web-server-log',
    icon: ReceiptLongOutlined,
    order: 80,
    label: {
      en: 'Web Server Log',
      de: 'Webserver-Protokoll',
      es: 'Registro del servidor web',
      it: 'Log del server web',
    },
  },
];
