import { describe, expect, it } from 'vitest';
import { resources } from '../../resources';
import type { ResourceDef } from '../../resources/define';
import { matchRoute } from '../../src/routes/match';
import {
  type MenuContext,
  UPGRADE_PATH,
  buildMenu,
  hasPage,
  resourceMenuEntries,
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
const fromResources = resourceMenuEntries(resources as Record<string, ResourceDef>);

describe('menus derived from the route table', () => {
  for (const [role, ctx] of Object.entries(ROLES)) {
    it(`every entry shown to ${role} resolves to a route that role may open`, () => {
      for (const name of Object.keys(MENUS) as MenuName[]) {
        for (const wordpress of [false, true]) {
          const items = buildMenu(name, { ...ctx, ...IDS, isWordPress: wordpress }, fromResources);
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

  it('leaves out the entries whose page does not exist yet', () => {
    const user = { ...ROLES.user!, ...IDS };
    const profile = buildMenu('profile', user, fromResources).map((item) => item.to);
    expect(profile).toContain('/my-profile');
    expect(profile).toContain('/ticket-list');
    expect(matchRoute('/subscription')).toBeNull();
    expect(profile).not.toContain('/subscription');
    // Main sidebar entries without an id have no page; the dashboard has.
    expect(buildMenu('main', user).map((item) => item.to)).toEqual(['/dashboard']);
    expect(shownShortcuts(ROLES.user!).map((entry) => entry.path)).not.toContain('/backup');
    expect(hasPage(UPGRADE_PATH, ROLES.user!)).toBe(Boolean(matchRoute(UPGRADE_PATH)));
  });

  it('shows an entry as soon as its page is in the table', () => {
    const all = () => true;
    const user = { ...ROLES.user!, ...IDS };
    expect(buildMenu('profile', user, fromResources, all).map((item) => item.to)).toContain(
      '/subscription',
    );
  });

  it('keeps admin-only pages from admin staff', () => {
    const staff = buildMenu('admin', ROLES.staff!, fromResources).map((item) => item.to);
    expect(staff).toEqual(['/admin/users']);
    const admin = buildMenu('admin', ROLES.admin!, fromResources).map((item) => item.to);
    expect(admin).toEqual(
      expect.arrayContaining(['/admin/dashboard', '/admin/users', '/admin/referrals']),
    );
    expect(admin).not.toContain('/admin/packages');
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

  it('the older /server-summaryold/{id} opens the server summary', async () => {
    const old = matchRoute('/server-summaryold/7');
    const current = matchRoute('/server-summary/7');
    expect(old?.params.id).toBe('7');
    expect(old?.route.layout).toBe(current?.route.layout);
    const [a, b] = await Promise.all([old!.route.page(), current!.route.page()]);
    expect(a.default).toBe(b.default);
  });
});
