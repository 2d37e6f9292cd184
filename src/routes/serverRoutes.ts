import { OLD_ADDRESSES } from './oldAddresses';
import type { RouteDef } from './types';

const server = (path: string, title: string, page: RouteDef['page']): RouteDef => ({
  path: `/${path}/:id`,
  layout: 'webApp',
  access: 'user',
  title,
  page,
});

/** Server-level pages: the spec's web-page layout, the server id in the path. */
export const serverRoutes: readonly RouteDef[] = [
  server('server-summary', 'Server summary', () => import('../pages/server/ServerSummaryPage')),
  server('activity-logs', 'Activity logs', () => import('../pages/server/ActivityLogsPage')),
  // The spec's older addresses: behind the same guard and layout, they lead to today's pages.
  ...OLD_ADDRESSES.map((old) => server(old, 'Redirecting', () => import('./OldAddressPage'))),
];
