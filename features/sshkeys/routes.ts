import type { RouteDef } from '../../src/routes/types';

/** The SSH keys page of a server, with its SSH settings (spec "SSH keys", server layout). */
export const routes: RouteDef[] = [
  {
    path: '/ssh-keys/:id',
    layout: 'webApp',
    access: 'user',
    title: 'SSH keys',
    page: () => import('./SshKeysPage'),
  },
];
