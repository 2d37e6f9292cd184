import { describe, expect, it } from 'vitest';
import { canAccess } from '../../src/routes/access';
import { decideNavigation } from '../../src/routes/guard';
import { matchRoute } from '../../src/routes/match';
import { currentAddress } from '../../src/routes/oldAddresses';
import {
  type MenuContext,
  UPGRADE_PATH,
  buildMenu,
  hasPage,
  shownShortcuts,
} from '../../src/shell/buildMenu';
import { MENUS, type MenuName } from '../../src/shell/menus';

/** Issue 8: a menu entry never leads to /404; entries come from the route table. */
const ROLES: Record<string, MenuContext> = {
  user: { isAdmin: false, isStaff: false },
  staff: { isAdmin: false, isStaff: true },
  admin: { isAdmin: true, isStaff: false },
};
const IDS = { serverId: '7', webAppId: '3' };

describe('menus derived from the route table', () => {
  for (const [role, ctx] of Object.entries(ROLES)) {
    it(`every entry shown to ${role} resolves to a route that role may open`, () => {
      for (const name of Object.keys(MENUS) as MenuName[]) {
        for (const wordpress of [false, true]) {
          const items = buildMenu(name, { ...ctx, ...IDS, isWordPress: wordpress });
          for (const item of items) {
            const match = matchRoute(item.to);
            expect(match, `${name}: ${item.to}`).not.toBeNull();
            const access = match!.route.access;
            expect(['user', 'open', 'staff', 'admin'], item.to).toContain(access);
            if (access === 'admin') expect(ctx.isAdmin, item.to).toBe(true);
            if (access === 'staff') expect(ctx.isAdmin || ctx.isStaff, item.to).toBe(true);
          }
        }
      }
      for (const entry of shownShortcuts(ctx)) {
        expect(matchRoute(entry.path), entry.path).not.toBeNull();
      }
    });
  }

  it('the navigation guard opens every page a menu shows, by the same canAccess', () => {
    for (const [role, ctx] of Object.entries(ROLES)) {
      const session = { isAdmin: ctx.isAdmin, isStaff: ctx.isStaff };
      for (const name of Object.keys(MENUS) as MenuName[]) {
        for (const item of buildMenu(name, { ...ctx, ...IDS })) {
          const match = matchRoute(item.to)!;
          const decision = decideNavigation({
            pathname: item.to,
            route: match.route,
            params: match.params,
            session,
          });
          expect(decision, `${role} ${item.to}`).toEqual({ kind: 'allow' });
        }
      }
    }
  });

  it('canAccess: staff reach staff pages only, admins all, users their own', () => {
    const user = { signedIn: true, isAdmin: false, isStaff: false };
    expect(canAccess('user', user)).toBe(true);
    expect(canAccess('staff', user)).toBe(false);
    expect(canAccess('admin', user)).toBe(false);
    expect(canAccess('staff', { ...user, isStaff: true })).toBe(true);
    expect(canAccess('admin', { ...user, isStaff: true })).toBe(false);
    // Admin staff reach Users and Servers only, even when also flagged admin.
    expect(canAccess('admin', { ...user, isAdmin: true, isStaff: true })).toBe(false);
    expect(canAccess('admin', { ...user, isAdmin: true })).toBe(true);
    expect(canAccess('open', { ...user, signedIn: false })).toBe(true);
    expect(canAccess('user', { signedIn: false, isAdmin: false, isStaff: false })).toBe(false);
  });

  it('leaves out the entries whose page does not exist yet', () => {
    const user = { ...ROLES.user!, ...IDS };
    const profile = buildMenu('profile', user).map((item) => item.to);
    expect(profile).toContain('/my-profile');
    expect(profile).toContain('/ticket-list');
    // /subscription has its page now (features/billing): the entry shows.
    expect(matchRoute('/subscription')).not.toBeNull();
    expect(profile).toContain('/subscription');
    // Main sidebar entries without a page are left out; the dashboard, cron jobs, databases,
    // EasyPHP and web applications have one.
    expect(buildMenu('main', user).map((item) => item.to)).toEqual([
      '/dashboard',
      '/cron-job',
      '/database-list',
      '/easyphp',
      '/web-applications',
    ]);
    expect(shownShortcuts(ROLES.user!).map((entry) => entry.path)).toContain('/backup');
    expect(hasPage(UPGRADE_PATH, ROLES.user!)).toBe(Boolean(matchRoute(UPGRADE_PATH)));
  });

  it('shows an entry as soon as its page is in the table', () => {
    const all = () => 'user' as const;
    const user = { ...ROLES.user!, ...IDS };
    expect(buildMenu('profile', user, all).map((item) => item.to)).toContain('/subscription');
  });

  it('keeps admin-only pages from admin staff', () => {
    const staff = buildMenu('admin', ROLES.staff!).map((item) => item.to);
    // Spec 6: staff keep Users and Servers (issue 26 gave Servers its page).
    expect(staff).toEqual(['/admin/users', '/admin/servers']);
    const admin = buildMenu('admin', ROLES.admin!).map((item) => item.to);
    expect(admin).toEqual(
      expect.arrayContaining([
        '/admin/dashboard',
        '/admin/users',
        '/admin/servers',
        '/admin/referrals',
        '/admin/php-management',
        '/admin/packages',
        '/admin/coupons',
        '/admin/api',
        '/admin/module-sittings',
      ]),
    );
  });

  it('the server sidebar opens with the summary and leads back to all servers', () => {
    const items = buildMenu('server', { ...ROLES.user!, serverId: '7' });
    expect(items[0]).toMatchObject({
      to: '/dashboard',
      back: true,
      label: 'shell.menu.allServers',
    });
    expect(items[1]).toMatchObject({ to: '/server-summary/7', label: 'shell.menu.serverSummary' });
  });

  it('the older /server-summaryold/{id} and /mysqlold/{id} lead to the current pages', () => {
    for (const [old, current] of [
      ['/server-summaryold/7', '/server-summary/7'],
      ['/mysqlold/7', '/database-list/7'],
    ] as const) {
      const route = matchRoute(old);
      // Behind the same guard and layout as the page it leads to.
      expect(route?.route.access).toBe(matchRoute(current)?.route.access);
      expect(route?.route.layout).toBe(matchRoute(current)?.route.layout);
      expect(currentAddress(old)).toBe(current);
    }
    expect(currentAddress('/server-summary/7')).toBeNull();
    expect(currentAddress('/mysqlold/x')).toBeNull();
  });

  it("the spec's glued /payment{id} and /recharge-payment-method{id} lead to /name/{id}", () => {
    // No route matches the glued spelling, so the guard and the not-found fallback ask here.
    expect(matchRoute('/payment12')).toBeNull();
    expect(currentAddress('/payment12')).toBe('/payment/12');
    expect(currentAddress('/payment12/')).toBe('/payment/12');
    expect(currentAddress('/recharge-payment-method7')).toBe('/recharge-payment-method/7');
    // The address it leads to is the billing page, behind the same access as every user page.
    expect(matchRoute('/payment/12')?.route.access).toBe('user');
    for (const other of [
      '/payment',
      '/paymentx',
      '/payment-invoice12',
      '/payment/12',
      '/payments12',
    ])
      expect(currentAddress(other)).toBeNull();
  });
});
