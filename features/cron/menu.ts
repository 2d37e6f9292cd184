import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The cron jobs: the main sidebar lists them by server, the server sidebar the server's own. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'main',
    key: 'cronJobs',
    path: '/cron-job',
    icon: ScheduleOutlined,
    order: 30,
    label: { en: 'Cron Jobs', de: 'Cronjobs', es: 'Tareas cron', it: 'Cron job' },
  },
  {
    menu: 'server',
    key: 'cronJobs',
    path: '/cron-jobs',
    icon: ScheduleOutlined,
    order: 60,
    label: { en: 'Cron Jobs', de: 'Cronjobs', es: 'Tareas cron', it: 'Cron job' },
  },
];
