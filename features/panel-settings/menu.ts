import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/**
 * Module settings has no entry in the spec's admin menu; it sits after API (the shell's, at 60),
 * whose page this feature gives.
 */
export const menu: MenuDeclaration[] = [
  {
    menu: 'admin',
    key: 'moduleSettings',
    path: '/admin/module-sittings',
    icon: SettingsOutlined,
    order: 65,
    label: {
      en: 'Module Settings',
      de: 'Moduleinstellungen',
      es: 'Ajustes de módulos',
      it: 'Impostazioni moduli',
    },
  },
];
