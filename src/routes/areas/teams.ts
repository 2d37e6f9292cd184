import type { RouteDef } from '../types';

/** The pages of teams (issue 4); /team and /team-manager follow the spec's entry rule. */
export const teamsRoutes: readonly RouteDef[] = [
  {
    path: '/team',
    layout: 'profile',
    access: 'user',
    title: 'Team',
    page: () => import('../../pages/team/TeamPage'),
  },
  {
    path: '/create-team',
    layout: 'profile',
    access: 'user',
    title: 'Create a team',
    page: () => import('../../pages/team/CreateTeamPage'),
  },
  {
    path: '/team-manager',
    layout: 'profile',
    access: 'user',
    title: 'Teams',
    page: () => import('../../pages/team/TeamManagerPage'),
  },
  {
    path: '/edit-team/:id',
    layout: 'profile',
    access: 'user',
    title: 'Edit team',
    page: () => import('../../pages/team/EditTeamPage'),
  },
];
