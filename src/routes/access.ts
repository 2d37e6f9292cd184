import { type Role, guardAllows } from '../../resources/access';
import type { RouteAccess } from './types';

/**
 * Who may open a page, as one pure function: the navigation guard decides with it, and the
 * menus and header shortcuts show an entry only when it allows the entry's page, so no entry
 * ever leads to a page the user cannot open. It applies the resources' guard rule
 * (resources/access.ts, the same the server applies) to the route's declared access.
 */
export type { Role };

/** The spec's admin staff reach Users and Servers only: the staff flag wins over admin. */
export function effectiveRole(role: Role): Role {
  return role.isStaff ? { ...role, isAdmin: false } : role;
}

const GUARD_OF = { user: 'user', staff: 'staff', admin: 'admin' } as const;

/**
 * A signed-in page (`user`, `staff`, `admin`) by the caller's role; public and error pages for
 * everyone (the guard sends a signed-in user from the sign-in pages home: a redirect, not a
 * refusal).
 */
export function canAccess(access: RouteAccess, role: Role): boolean {
  if (access === 'open' || access === 'public') return true;
  return guardAllows(GUARD_OF[access], effectiveRole(role));
}

/**
 * How a path's access is found: the route table (`routeAccessOf` in match.ts), or in tests the
 * spec's pages that do not exist yet.
 */
export type AccessOf = (path: string) => RouteAccess | null;

/** A link opens a page this role may open: a route exists for it and `canAccess` allows it. */
export function canOpen(path: string, role: Role, accessOf: AccessOf): boolean {
  const access = accessOf(path);
  return access !== null && canAccess(access, role);
}
