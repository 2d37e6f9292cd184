import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const support = {
  key: 'support',
  label: { en: 'Support', de: 'Support', es: 'Soporte', it: 'Assistenza' },
};

/** Support tickets: the profile sidebar and the header shortcut. */
export const menu: MenuDeclaration[] = [
  { ...support, menu: 'profile', path: '/ticket-list', icon: SupportAgentOutlined, order: 90 },
  { ...support, menu: 'header', path: '/ticket-list', icon: SupportAgentOutlined, order: 40 },
];
