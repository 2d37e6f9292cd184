import { describe, expect, it } from 'vitest';
import type { AccessOf } from '../../src/routes/access';
import { type MenuContext, buildMenu } from '../../src/shell/buildMenu';
import { HEADER_SHORTCUTS, MENUS } from '../../src/shell/menus';
import { en } from '../../src/i18n/en';

const ADMIN: MenuContext = { isAdmin: true, isStaff: false };
const STAFF: MenuContext = { isAdmin: false, isStaff: true };
const USER: MenuContext = { isAdmin: false, isStaff: false };
const paths = (items: { to: string }[]) => items.map((item) => item.to);
/**
 * The menus as the spec lists them: every entry, as if each page existed with the access the
 * spec gives it (admin staff reach Users and Servers only; see shell-routes-menus).
 */
const everyPage: AccessOf = (path) =>
  path === '/admin/users' || path === '/admin/servers'
    ? 'staff'
    : path.startsWith('/admin/')
      ? 'admin'
      : 'user';
const menu = (name: Parameters<typeof buildMenu>[0], ctx: MenuContext) =>
  buildMenu(name, ctx, everyPage);

describe('admin menu role filtering (spec section 6)', () => {
  it('gives admins every admin entry', () => {
    const shown = paths(menu('admin', ADMIN));
    expect(shown).toEqual([
      '/admin/dashboard',
      '/admin/users',
      '/admin/servers',
      '/admin/packages',
      '/admin/coupons',
      '/admin/api',
      '/admin/php-management',
      '/admin/app-releases',
      '/admin/referrals',
      '/admin/911',
      '/admin/outbox',
      '/admin/vultr-plans',
    ]);
  });

  it('leaves admin staff only Users and Servers', () => {
    expect(paths(menu('admin', STAFF))).toEqual(['/admin/users', '/admin/servers']);
    // Staff flag wins even on an account that is also an admin.
    expect(paths(menu('admin', { isAdmin: true, isStaff: true }))).toEqual([
      '/admin/users',
      '/admin/servers',
    ]);
  });

  it('gives other users no admin entries', () => {
    expect(menu('admin', USER)).toEqual([]);
  });
});

describe('menus of spec section 2', () => {
  it('main sidebar', () => {
    expect(paths(menu('main', USER))).toEqual([
      '/dashboard',
      '/activity-logs',
      '/cron-job',
      '/database-list',
      '/easyphp',
      '/ssh-keys',
      '/web-applications',
    ]);
  });

  it('server sidebar appends the server id', () => {
    const items = menu('server', { ...USER, serverId: '7' });
    const own = paths(items.filter((item) => !item.back));
    expect(own).toHaveLength(13);
    expect(own.every((path) => path.endsWith('/7'))).toBe(true);
    expect(own).toContain('/supervisor-jobs/7');
    expect(own[0]).toBe('/server-summary/7');
    expect(items.find((item) => item.back)?.to).toBe('/dashboard');
    expect(menu('server', USER).filter((item) => !item.back)).toEqual([]);
  });

  it('web-app sidebar appends serverId/webAppId and swaps in the WordPress manager', () => {
    const ids = { ...USER, serverId: '7', webAppId: '3' };
    const plain = menu('webApp', ids);
    expect(paths(plain)).toContain('/account-summary/7/3');
    expect(paths(plain)).toContain('/cache-control/7/3');
    expect(plain.find((item) => item.back)?.to).toBe('/web-applications/7');
    const wordpress = paths(menu('webApp', { ...ids, isWordPress: true }));
    expect(wordpress).toContain('/wordpress-manager/7/3');
    expect(wordpress).not.toContain('/account-summary/7/3');
  });

  it('mini web-app sidebar goes back to the summary or the WordPress manager', () => {
    const ids = { ...USER, serverId: '7', webAppId: '3' };
    expect(menu('appMini', ids).find((item) => item.back)?.to).toBe('/account-summary/7/3');
    expect(menu('appMini', { ...ids, isWordPress: true }).find((item) => item.back)?.to).toBe(
      '/wordpress-manager/7/3',
    );
    expect(paths(menu('appMini', ids))).toContain('/app-settings/7/3');
  });

  it('email, email mini and mailbox sidebars', () => {
    expect(paths(menu('email', USER))).toEqual([
      '/email-accounts',
      '/autoresponders',
      '/forwarders',
      '/email-disk-usage',
    ]);
    expect(menu('emailMini', USER).find((item) => item.back)?.to).toBe('/email-accounts');
    expect(paths(menu('mailbox', USER))).toEqual([
      '/check-mail',
      '/compose-mail',
      '/drafts',
      '/sent-mail',
      '/spam',
      '/trash',
      '/archive',
    ]);
  });

  it('profile sidebar', () => {
    const shown = paths(menu('profile', USER));
    expect(shown).toEqual([
      '/dashboard',
      '/dns',
      '/3rd-party-integration',
      '/my-profile',
      '/refer-a-friend',
      '/login-activity',
      '/subscription',
      '/account-activity-log',
      '/ticket-list',
      '/alerts',
      '/alert-settings',
    ]);
  });

  it('header shortcuts', () => {
    expect(HEADER_SHORTCUTS.map((entry) => entry.path)).toEqual([
      '/dns',
      '/backup',
      '/team',
      '/ticket-list',
      '/my-profile',
    ]);
  });

  it('has an English label for every entry', () => {
    const labels = en.shell.menu as Record<string, string>;
    for (const entry of [...Object.values(MENUS).flat(), ...HEADER_SHORTCUTS]) {
      expect(labels[entry.label.replace('shell.menu.', '')], entry.label).toBeTypeOf('string');
    }
  });
});
