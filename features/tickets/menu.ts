import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Support tickets: the profile sidebar and the header shortcut. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'profile',
    key: 'support',
    path: '/ticket-list',
    icon: SupportAgentOutlined,
    order: 90,
    label: { en: 'Support', de: 'Support', es: 'Soporte', it: 'Assistenza' },
  },
  {
    menu: 'header',
    key: 'support',
    path: '/ticket-list',
    icon: SupportAgentOutlined,
    order: 40,
    label: { en: 'Support', de: 'Support', es: 'Soporte', it: 'Assistenza' },
  },
];
