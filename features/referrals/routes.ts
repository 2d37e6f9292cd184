import type { RouteDef } from '../../src/routes/types';

/** The pages of referrals (issue 4). */
export const routes: readonly RouteDef[] = [
  {
    path: '/refer-a-friend',
    layout: 'profile',
    access: 'user',
    title: 'Refer a Friend',
    page: () => import('./ReferAFriendPage'),
  },
  {
    path: '/admin/referrals',
    layout: 'admin',
    access: 'admin',
    title: 'Referrals',
    page: () => import('./AdminReferralsPage'),
  },
];
