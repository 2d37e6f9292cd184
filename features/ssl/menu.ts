import HttpsOutlined from '@mui/icons-material/HttpsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The certificates of a web app. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'webApp',
    key: 'sslCertificates',
    path: '/ssl-certificates',
    icon: HttpsOutlined,
    order: 70,
    label: {
      en: 'SSL Certificates',
      de: 'SSL-Zertifikate',
      es: 'Certificados SSL',
      it: 'Certificati SSL',
    },
  },
  {
    menu: 'appMini',
    key: 'sslCertificates',
    path: '/ssl-certificates',
    icon: HttpsOutlined,
    order: 60,
    label: {
      en: 'SSL Certificates',
      de: 'SSL-Zertifikate',
      es: 'Certificados SSL',
      it: 'Certificati SSL',
    },
  },
];
