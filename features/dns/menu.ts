import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const dns = { key: 'dns', label: { en: 'DNS', de: 'DNS', es: 'DNS', it: 'DNS' } };

/** DNS zones and third-party keys: the profile sidebar and the header shortcut. */
export const menu: MenuDeclaration[] = [
  { ...dns, menu: 'profile', path: '/dns', icon: DnsOutlined, order: 20 },
  {
    menu: 'profile',
    key: 'integrations',
    path: '/3rd-party-integration',
    icon: HubOutlined,
    order: 30,
    label: {
      en: '3rd-Party Integration',
      de: 'Drittanbieter-Integration',
      es: 'Integraciones',
      it: 'Integrazioni',
    },
  },
  { ...dns, menu: 'header', path: '/dns', icon: DnsOutlined, order: 10 },
];
