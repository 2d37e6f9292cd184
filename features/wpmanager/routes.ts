import type { RouteDef } from '../../src/routes/types';

/**
 * The WordPress manager's page (spec /wordpress-manager/{id}): in the web-app sidebar in place
 * of the account summary for WordPress apps (src/shell/buildMenu.ts).
 */
export const routes: RouteDef[] = [
  {
    path: '/wordpress-manager/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'WordPress manager',
    page: () => import('./WordPressManagerPage'),
  },
];
