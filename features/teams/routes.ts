import type { RouteDef } from '../../src/routes/types';

/** The pages of teams (issue 4); /team and /team-manager follow the spec's entry rule. */
export const routes: readonly RouteDef[] = [
  {
    path: '/team',
    layout: 'profile',
    access: 'user',
    title: 'Team',
    page: () => import('./TeamPage'),
  },
  {
    path: '/create-team',
    layout: 'profile',
    access: 'user',
    title: 'Create a team',
    page: () => import('./CreateTeamPage'),
  },
  {
    path: '/team-manager',
    layout: 'profile',
    access: 'user',
    title: 'Teams',
    page: () => import('./TeamManagerPage'),
  },
  {
    path: '/edit-team/:id',
    layout: 'profile',
    access: 'user',
    title: 'Edit team',
    page: () => import('./EditTeamPage'),
  },
];
