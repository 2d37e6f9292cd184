import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** DNS zones and third-party keys: the profile sidebar and the header shortcut. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'profile',
    key: 'dns',
    path: '/dns',
    icon: DnsOutlined,
    order: 20,
    label: { en: 'DNS', de: 'DNS', es: 'DNS', it: 'DNS' },
  },
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
  {
    menu: 'header',
    key: 'dns',
    path: '/dns',
    icon: DnsOutlined,
    order: 10,
    label: { en: 'DNS', de: 'DNS', es: 'DNS', it: 'DNS' },
  },
];
