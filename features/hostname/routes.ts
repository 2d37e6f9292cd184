import type { RouteDef } from '../../src/routes/types';

/**
 * The host name page of a server (spec "Hostname", server layout). The change itself is the
 * platform's (`PUT hostname/servers/...`, the servers resource and the `system.hostname` op).
 */
export const routes: RouteDef[] = [
  {
    path: '/hostname/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Hostname',
    page: () => import('./HostnamePage'),
  },
];
