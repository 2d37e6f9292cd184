import type { RouteDef } from '../../src/routes/types';

/** An app's web-server logs (spec "Logs"), in the web-app layout. */
export const routes: RouteDef[] = [
  {
    path: '/web-server-log/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Web server logs',
    page: () => import('./WebServerLogPage'),
  },
];
