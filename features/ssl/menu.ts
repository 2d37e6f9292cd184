import HttpsOutlined from '@mui/icons-material/HttpsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const sslCertificates = {
  key: 'sslCertificates',
  label: {
    en: 'SSL Certificates',
    de: 'SSL-Zertifikate',
    es: 'Certificados SSL',
    it: 'Certificati SSL',
  },
};

/** The certificates of a web app. */
export const menu: MenuDeclaration[] = [
  { ...sslCertificates, menu: 'webApp', path: '/ssl-certificates', icon: HttpsOutlined, order: 70 },
  {
    ...sslCertificates,
    menu: 'appMini',
    path: '/ssl-certificates',
    icon: HttpsOutlined,
    order: 60,
  },
];
