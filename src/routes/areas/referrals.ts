import type { RouteDef } from '../types';

/** The pages of referrals (issue 4). */
export const referralsRoutes: readonly RouteDef[] = [
  {
    path: '/refer-a-friend',
    layout: 'profile',
    access: 'user',
    title: 'Refer a Friend',
    page: () => import('../../pages/referrals/ReferAFriendPage'),
  },
  {
    path: '/admin/referrals',
    layout: 'admin',
    access: 'admin',
    title: 'Referrals',
    page: () => import('../../pages/referrals/AdminReferralsPage'),
  },
];
