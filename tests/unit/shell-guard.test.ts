import { describe, expect, it } from 'vitest';
import { type GuardInput, decideNavigation } from '../../src/routes/guard';
import {
  isUuid,
  recallReferrer,
  rememberReferrer,
  uuidFromParams,
} from '../../src/routes/referrer';
import type { RouteAccess } from '../../src/routes/types';
import { memoryStorage } from '../../dataProvider/session';

const UUID = '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';
const USER = { isAdmin: false, isStaff: false };
const STAFF = { isAdmin: false, isStaff: true };
const ADMIN = { isAdmin: true, isStaff: false };

const go = (
  pathname: string,
  route: [string, RouteAccess] | null,
  session: GuardInput['session'],
  params: GuardInput['params'] = {},
) =>
  decideNavigation({
    pathname,
    route: route && { path: route[0], access: route[1] },
    params,
    session,
  });

describe('navigation guard (spec section 2 "Navigation guard", section 6)', () => {
  it('sends / to /login for everyone', () => {
    for (const session of [null, USER, ADMIN]) {
      expect(go('/', null, session)).toEqual({ kind: 'redirect', to: '/login' });
    }
  });

  it("leads the spec's glued /payment{id} to /payment/{id}, where the guard decides again", () => {
    for (const session of [null, USER, ADMIN]) {
      expect(go('/payment12', null, session)).toEqual({ kind: 'redirect', to: '/payment/12' });
      expect(go('/recharge-payment-method7', null, session)).toEqual({
        kind: 'redirect',
        to: '/recharge-payment-method/7',
      });
    }
    // Then the page's own access: signed out goes to /register as on any user page.
    expect(go('/payment/12', ['/payment/:id', 'user'], null)).toEqual({
      kind: 'redirect',
      to: '/register',
    });
  });

  it('sends unknown paths to /404', () => {
    for (const session of [null, USER, ADMIN]) {
      expect(go('/no-such-page', null, session)).toEqual({ kind: 'redirect', to: '/404' });
    }
  });

  it('sends a protected page without a token to /register', () => {
    expect(go('/dashboard', ['/dashboard', 'user'], null)).toEqual({
      kind: 'redirect',
      to: '/register',
    });
    expect(go('/admin/users', ['/admin/users', 'staff'], null)).toEqual({
      kind: 'redirect',
      to: '/register',
    });
    expect(go('/admin/dashboard', ['/admin/dashboard', 'admin'], null)).toEqual({
      kind: 'redirect',
      to: '/register',
    });
    expect(go('/admin', null, null)).toEqual({ kind: 'redirect', to: '/register' });
  });

  it('sends a protected page to /login once the session ended in this tab', () => {
    const ended = (pathname: string, access: RouteAccess) =>
      decideNavigation({
        pathname,
        route: { path: pathname, access },
        params: {},
        session: null,
        sessionEnded: true,
      });
    expect(ended('/my-profile', 'user')).toEqual({ kind: 'redirect', to: '/login' });
    expect(ended('/admin/users', 'staff')).toEqual({ kind: 'redirect', to: '/login' });
    // A public page stays open.
    expect(ended('/login', 'public')).toEqual({ kind: 'allow' });
  });

  it('remembers a uuid of the protected route for the registration', () => {
    expect(go(`/dashboard/${UUID}`, ['/dashboard/:uuid', 'user'], null, { uuid: UUID })).toEqual({
      kind: 'redirect',
      to: '/register',
      remember: UUID,
    });
    expect(go('/server-summary/12', ['/server-summary/:id', 'user'], null, { id: '12' })).toEqual({
      kind: 'redirect',
      to: '/register',
    });
  });

  it('lets visitors open public and open pages', () => {
    expect(go('/login', ['/login', 'public'], null)).toEqual({ kind: 'allow' });
    expect(go(`/register/${UUID}`, ['/register/:uuid', 'public'], null, { uuid: UUID })).toEqual({
      kind: 'allow',
    });
    expect(go('/404', ['/404', 'open'], null)).toEqual({ kind: 'allow' });
  });

  it('sends an admin on /admin, /login or /register to /admin/dashboard', () => {
    const home = { kind: 'redirect', to: '/admin/dashboard' };
    expect(go('/admin', null, ADMIN)).toEqual(home);
    expect(go('/admin/', null, ADMIN)).toEqual(home);
    expect(go('/login', ['/login', 'public'], ADMIN)).toEqual(home);
    expect(go('/login/5', ['/login/:id', 'public'], ADMIN)).toEqual(home);
    expect(go('/register', ['/register', 'public'], ADMIN)).toEqual(home);
    expect(go(`/register/${UUID}`, ['/register/:uuid', 'public'], ADMIN)).toEqual(home);
  });

  it('lets an admin into the admin area and onto user pages', () => {
    expect(go('/admin/dashboard', ['/admin/dashboard', 'admin'], ADMIN)).toEqual({ kind: 'allow' });
    expect(go('/admin/users', ['/admin/users', 'staff'], ADMIN)).toEqual({ kind: 'allow' });
    expect(go('/my-profile', ['/my-profile', 'user'], ADMIN)).toEqual({ kind: 'allow' });
  });

  it('sends a non-admin on an admin route to /404', () => {
    expect(go('/admin/dashboard', ['/admin/dashboard', 'admin'], USER)).toEqual({
      kind: 'redirect',
      to: '/404',
    });
    expect(go('/admin/users', ['/admin/users', 'staff'], USER)).toEqual({
      kind: 'redirect',
      to: '/404',
    });
    expect(go('/admin', null, USER)).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('lets admin staff onto staff routes only', () => {
    expect(go('/admin/users', ['/admin/users', 'staff'], STAFF)).toEqual({ kind: 'allow' });
    expect(go('/admin/outbox', ['/admin/outbox', 'admin'], STAFF)).toEqual({
      kind: 'redirect',
      to: '/404',
    });
  });

  it('waits for the staff flag before deciding a staff route', () => {
    expect(
      go('/admin/users', ['/admin/users', 'staff'], { isAdmin: false, isStaff: undefined }),
    ).toEqual({ kind: 'wait' });
    // Other routes never wait for it.
    expect(
      go('/dashboard', ['/dashboard', 'user'], { isAdmin: false, isStaff: undefined }),
    ).toEqual({ kind: 'allow' });
  });

  it('sends a signed-in non-admin on /login or /register to /dashboard', () => {
    const home = { kind: 'redirect', to: '/dashboard' };
    expect(go('/login', ['/login', 'public'], USER)).toEqual(home);
    expect(go('/login/3', ['/login/:id', 'public'], USER)).toEqual(home);
    expect(go('/register', ['/register', 'public'], USER)).toEqual(home);
    expect(go(`/register/${UUID}`, ['/register/:uuid', 'public'], STAFF)).toEqual(home);
  });

  it('leaves the other public pages and user pages open to signed-in users', () => {
    expect(go('/confirm-account', ['/confirm-account', 'public'], USER)).toEqual({ kind: 'allow' });
    expect(go('/dashboard', ['/dashboard', 'user'], USER)).toEqual({ kind: 'allow' });
    expect(go('/403', ['/403', 'open'], USER)).toEqual({ kind: 'allow' });
  });
});

describe('referrer memory', () => {
  it('recognises uuids only', () => {
    expect(isUuid(UUID)).toBe(true);
    expect(isUuid('12')).toBe(false);
    expect(isUuid(undefined)).toBe(false);
    expect(uuidFromParams({ id: '4', uuid: UUID })).toBe(UUID);
    expect(uuidFromParams({ id: '4' })).toBeUndefined();
  });

  it('keeps a uuid for the tab and refuses anything else', () => {
    const storage = memoryStorage();
    expect(recallReferrer(storage)).toBeUndefined();
    rememberReferrer('not-a-uuid', storage);
    expect(recallReferrer(storage)).toBeUndefined();
    rememberReferrer(UUID, storage);
    expect(recallReferrer(storage)).toBe(UUID);
  });
});
