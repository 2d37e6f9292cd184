import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Teams: the header shortcut. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'header',
    key: 'team',
    path: '/team',
    icon: GroupsOutlined,
    order: 30,
    label: { en: 'Team', de: 'Team', es: 'Equipo', it: 'Team' },
  },
];
