import type { RouteDef } from '../../src/routes/types';

/** The admins' 911 tool (spec s.2 `/admin/911`); its menu entry is the shell's (admin staff lack it). */
export const routes: RouteDef[] = [
  {
    path: '/admin/911',
    layout: 'admin',
    access: 'admin',
    title: '911 scripts',
    page: () => import('./EmergencyScriptsPage'),
  },
];
