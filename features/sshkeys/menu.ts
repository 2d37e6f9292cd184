import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/**
 * The SSH keys of a server. The main menu's "SSH Keys" (the account's keys, no server) stays
 * the shell's entry until that page exists.
 */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'sshKeys',
    path: '/ssh-keys',
    icon: VpnKeyOutlined,
    order: 80,
    label: { en: 'SSH Keys', de: 'SSH-Schlüssel', es: 'Claves SSH', it: 'Chiavi SSH' },
  },
];
