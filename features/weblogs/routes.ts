import type { RouteDef } from '../../src/routes/types';

/**
 * An app's web-server logs (spec "Logs"): an app-level page (secondary layout), with the same
 * web-app sidebar as the app's other pages.
 */
export const routes: RouteDef[] = [
  {
    path: '/web-server-log/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Web server logs',
    page: () => import('./WebServerLogPage'),
  },
];
