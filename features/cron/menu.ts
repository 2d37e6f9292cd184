import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const cronJobs = {
  key: 'cronJobs',
  label: { en: 'Cron Jobs', de: 'Cronjobs', es: 'Tareas cron', it: 'Cron job' },
};

/** The cron jobs: the main sidebar lists them by server, the server sidebar the server's own. */
export const menu: MenuDeclaration[] = [
  { ...cronJobs, menu: 'main', path: '/cron-job', icon: ScheduleOutlined, order: 30 },
  { ...cronJobs, menu: 'server', path: '/cron-jobs', icon: ScheduleOutlined, order: 60 },
];
