import { connectRoutes } from './connectRoutes';
import { featureRoutes } from './features.gen';
import { serverRoutes } from './serverRoutes';
import type { RouteDef } from './types';

/**
 * Every route of the panel with its layout and access. Later issues add their routes here.
 * Pages load lazily (see lazyPage.ts): nothing below is in the /login bundle but its own page.
 */
export const routes: readonly RouteDef[] = [
  // Public (section 2, "Public routes"): plain layout, signed-out visitors.
  {
    path: '/login',
    layout: 'plain',
    access: 'public',
    title: 'Sign in',
    page: () => import('../pages/auth/LoginPage'),
  },
  {
    path: '/login/:id',
    layout: 'plain',
    access: 'public',
    title: 'Sign in',
    page: () => import('../pages/auth/LoginPage'),
  },
  {
    path: '/register',
    layout: 'plain',
    access: 'public',
    title: 'Create account',
    page: () => import('../pages/auth/RegisterPage'),
  },
  // /register/{uuid} and /register/{id} are one pattern: the segment is the referrer's uuid.
  {
    path: '/register/:uuid',
    layout: 'plain',
    access: 'public',
    title: 'Create account',
    page: () => import('../pages/auth/RegisterPage'),
  },
  {
    path: '/validate-otp',
    layout: 'plain',
    access: 'public',
    title: 'Sign-in code',
    page: () => import('../pages/auth/ValidateOtpPage'),
  },
  {
    path: '/confirm-account',
    layout: 'plain',
    access: 'public',
    title: 'Confirm account',
    page: () => import('../pages/auth/ConfirmAccountPage'),
  },
  {
    path: '/confirm-account-for-password-reset',
    layout: 'plain',
    access: 'public',
    title: 'Reset password',
    page: () => import('../pages/auth/ConfirmResetPage'),
  },
  {
    path: '/reset-password/:id',
    layout: 'plain',
    access: 'public',
    title: 'New password',
    page: () => import('../pages/auth/ResetPasswordPage'),
  },

  // Errors: everyone.
  {
    path: '/403',
    layout: 'plain',
    access: 'open',
    title: 'Forbidden',
    page: () => import('../pages/errors/ForbiddenPage'),
  },
  {
    path: '/404',
    layout: 'plain',
    access: 'open',
    title: 'Not found',
    page: () => import('../pages/errors/NotFoundPage'),
  },

  // Profile layout (signed in).
  {
    path: '/dashboard',
    layout: 'profile',
    access: 'user',
    title: 'Dashboard',
    page: () => import('../pages/servers/DashboardPage'),
  },
  // The spec's /dashboard/{uuid}: the same dashboard; a visitor without a token goes to
  // /register and the guard keeps the uuid as the referrer.
  {
    path: '/dashboard/:uuid',
    layout: 'profile',
    access: 'user',
    title: 'Dashboard',
    page: () => import('../pages/servers/DashboardPage'),
  },
  {
    path: '/no-servers',
    layout: 'profile',
    access: 'user',
    title: 'Connect a server',
    page: () => import('../pages/servers/NoServersPage'),
  },
  // Connecting, installing and removing servers (profile layout).
  ...connectRoutes,
  // Server-level pages (server layout, {id} is the server id).
  ...serverRoutes,
  // The feature folders' pages (features/<name>/routes.ts), gathered by scripts/gen-features.mjs.
  ...featureRoutes,
  // The account pages of the profile layout (issue 4; teams, DNS, tickets and referrals are features).
  {
    path: '/my-profile',
    layout: 'profile',
    access: 'user',
    title: 'My Profile',
    page: () => import('../pages/account/MyProfilePage'),
  },
  {
    path: '/login-activity',
    layout: 'profile',
    access: 'user',
    title: 'Login Activity',
    page: () => import('../resources/authlogs').then((m) => ({ default: m.default.list })),
  },
  {
    path: '/account-activity-log',
    layout: 'profile',
    access: 'user',
    title: 'Account Activity Log',
    page: () => import('../resources/accntactivity').then((m) => ({ default: m.default.list })),
  },

  // Admin area.
  {
    path: '/admin/dashboard',
    layout: 'admin',
    access: 'admin',
    title: 'Admin Dashboard',
    page: () => import('../pages/admin/AdminDashboardPage'),
  },
  {
    path: '/admin/users',
    layout: 'admin',
    access: 'staff',
    title: 'Users',
    page: () => import('../resources/admin-users').then((m) => ({ default: m.default.list })),
  },
  {
    path: '/admin/outbox',
    layout: 'admin',
    access: 'admin',
    title: 'Outbox',
    page: () => import('../resources/outbox').then((m) => ({ default: m.default.list })),
  },
  {
    path: '/admin/outbox/:id',
    layout: 'admin',
    access: 'admin',
    title: 'Mail',
    page: () => import('../resources/outbox').then((m) => ({ default: m.default.show })),
  },
];
