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
  // The spec's older address of the summary: the same page.
  server('server-summaryold', 'Server summary', () => import('../pages/server/ServerSummaryPage')),
  server('server-stats', 'Server statistics', () => import('../pages/server/ServerStatsPage')),
  server('activity-logs', 'Activity logs', () => import('../pages/server/ActivityLogsPage')),
  server('hostname', 'Hostname', () => import('../pages/server/HostnamePage')),
  server('services', 'Services', () => import('../pages/server/ServicesPage')),
  server('system-users', 'System users', () => import('../pages/server/SystemUsersPage')),
  server('ssh-keys', 'SSH keys', () => import('../pages/server/SshKeysPage')),
];
