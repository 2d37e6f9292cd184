import type { RouteDef } from '../../src/routes/types';

/**
 * An app's web-server logs (spec "Logs"), in the apps-mini layout: its lines are wide, and the
 * mini web-app sidebar keeps the app's tools and the way back to its summary at hand.
 */
export const routes: RouteDef[] = [
  {
    path: '/web-server-log/:serverId/:webAppId',
    layout: 'appsMini',
    access: 'user',
    title: 'Web server logs',
    page: () => import('./WebServerLogPage'),
  },
];
