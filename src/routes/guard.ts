import type { RouteAccess } from './types';
import { canAccess } from './access';
import { currentAddress } from './oldAddresses';
import { uuidFromParams } from './referrer';

/**
 * The navigation guard of the spec (section 2 "Navigation guard", section 6), as one pure
 * function of what the browser knows: the path, the matched route, and the stored session.
 */
export interface GuardSession {
  isAdmin: boolean;
  /** Admin staff, from the fetched user; `undefined` while it is still loading. */
  isStaff: boolean | undefined;
}

export interface GuardInput {
  pathname: string;
  /** The route table entry that matched, or null for an unknown path. */
  route: { path: string; access: RouteAccess } | null;
  params: Readonly<Record<string, string | undefined>>;
  /** null when no token is stored. */
  session: GuardSession | null;
  /**
   * The panel ended this tab's session moments ago (a 401): a user page then goes to /login,
   * with the expiry message, however the page re-renders or another document loads meanwhile.
   */
  sessionEnded?: boolean;
}

export type GuardDecision =
  | { kind: 'allow' }
  /** The decision needs the user's staff flag, still on its way. */
  | { kind: 'wait' }
  /** `remember`: a referrer uuid to keep for the registration. */
  | { kind: 'redirect'; to: string; remember?: string };

export const LOGIN = '/login';
export const REGISTER = '/register';
export const USER_HOME = '/dashboard';
export const ADMIN_HOME = '/admin/dashboard';
export const NOT_FOUND = '/404';

const SIGN_IN_PAGES = new Set(['/login', '/login/:id', '/register', '/register/:uuid']);
const needsSignIn = (access: RouteAccess) =>
  access === 'user' || access === 'staff' || access === 'admin';
const isAdminRoot = (pathname: string) => pathname === '/admin' || pathname === '/admin/';

export function decideNavigation(input: GuardInput): GuardDecision {
  const { pathname, params, session } = input;
  if (pathname === '/' || pathname === '') return { kind: 'redirect', to: LOGIN };

  // `/admin` is the admin area's door, not a page: admins go in, others are turned away.
  const route = isAdminRoot(pathname) ? { path: '/admin', access: 'admin' as const } : input.route;
  // The spec's glued spellings (`/payment12`) match no route: they lead to the page's address,
  // where this guard decides again as for any other visit.
  if (!route) return { kind: 'redirect', to: currentAddress(pathname) ?? NOT_FOUND };

  if (needsSignIn(route.access) && !session) {
    if (input.sessionEnded) return { kind: 'redirect', to: LOGIN };
    const uuid = uuidFromParams(params);
    return uuid
      ? { kind: 'redirect', to: REGISTER, remember: uuid }
      : { kind: 'redirect', to: REGISTER };
  }
  if (!session) return { kind: 'allow' };

  if (SIGN_IN_PAGES.has(route.path))
    return { kind: 'redirect', to: session.isAdmin ? ADMIN_HOME : USER_HOME };
  if (route.path === '/admin')
    return { kind: 'redirect', to: session.isAdmin ? ADMIN_HOME : NOT_FOUND };
  // Staff status comes with the fetched user: a staff page waits for it.
  if (route.access === 'staff' && !session.isAdmin && session.isStaff === undefined)
    return { kind: 'wait' };
  const role = { signedIn: true, isAdmin: session.isAdmin, isStaff: session.isStaff ?? false };
  // The same rule the menus show entries by (access.ts).
  return canAccess(route.access, role) ? { kind: 'allow' } : { kind: 'redirect', to: NOT_FOUND };
}
