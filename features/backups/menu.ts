import BackupOutlined from '@mui/icons-material/BackupOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Backups: the header shortcut to the overview (spec section 2). */
export const menu: MenuDeclaration[] = [
  {
    menu: 'header',
    key: 'backup',
    path: '/backup',
    icon: BackupOutlined,
    order: 20,
    label: { en: 'Backup', de: 'Sicherung', es: 'Copias de seguridad', it: 'Backup' },
  },
];
