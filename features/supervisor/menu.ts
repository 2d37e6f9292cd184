import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** The supervisor jobs of a server. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'server',
    key: 'supervisorJobs',
    path: '/supervisor-jobs',
    icon: MemoryOutlined,
    order: 140,
    label: {
      en: 'Supervisor Jobs',
      de: 'Supervisor-Jobs',
      es: 'Tareas de Supervisor',
      it: 'Job di Supervisor',
    },
  },
];
