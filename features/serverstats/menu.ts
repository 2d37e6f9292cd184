import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The statistics of a server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'serverStats',
    path: '/server-stats',
    icon: QueryStatsOutlined,
    order: 130,
    label: { en: 'Server Stats', de: 'Serverstatistik', es: 'Estadísticas', it: 'Statistiche' },
  },
];
