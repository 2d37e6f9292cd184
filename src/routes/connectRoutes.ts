import type { RouteDef } from './types';

/** Connecting, installing and removing a server: profile-layout pages. */
export const connectRoutes: readonly RouteDef[] = [
  {
    path: '/connect-server',
    layout: 'profile',
    access: 'user',
    title: 'Connect a server',
    page: () => import('../pages/servers/ConnectServerPage'),
  },
  {
    path: '/connect-server/:id',
    layout: 'profile',
    access: 'user',
    title: 'Connect a server',
    page: () => import('../pages/servers/ConnectExistingServerPage'),
  },
  {
    path: '/connect-first-server',
    layout: 'profile',
    access: 'user',
    title: 'Connect your first server',
    page: () => import('../pages/servers/ConnectFirstServerPage'),
  },
  {
    path: '/server-install/:id',
    layout: 'profile',
    access: 'user',
    title: 'Install the agent',
    page: () => import('../pages/servers/ServerInstallPage'),
  },
  {
    path: '/remove-server/:id',
    layout: 'profile',
    access: 'user',
    title: 'Remove server',
    page: () => import('../pages/servers/RemoveServerPage'),
  },
];
