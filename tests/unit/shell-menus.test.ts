import { describe, expect, it } from 'vitest';
import { resources } from '../../resources';
import type { ResourceDef } from '../../resources/define';
import { type MenuContext, buildMenu, resourceMenuEntries } from '../../src/shell/buildMenu';
import { HEADER_SHORTCUTS, MENUS } from '../../src/shell/menus';
import { en } from '../../src/i18n/en';

const ADMIN: MenuContext = { isAdmin: true, isStaff: false };
const STAFF: MenuContext = { isAdmin: false, isStaff: true };
const USER: MenuContext = { isAdmin: false, isStaff: false };
const fromResources = resourceMenuEntries(resources as Record<string, ResourceDef>);
const paths = (items: { to: string }[]) => items.map((item) => item.to);

describe('admin menu role filtering (spec section 6)', () => {
  it('gives admins every admin entry and the resources’ entries', () => {
    const menu = paths(buildMenu('admin', ADMIN, fromResources));
    expect(menu).toEqual([
      '/admin/dashboard',
      '/admin/users',
      '/admin/servers',
      '/admin/packages',
      '/admin/coupons',
      '/admin/api',
      '/admin/php-management',
      '/admin/referrals',
      '/admin/911',
      '/admin/outbox',
      '/admin/vultr-plans',
    ]);
  });

  it('leaves admin staff only Users and Servers', () => {
    expect(paths(buildMenu('admin', STAFF, fromResources))).toEqual([
      '/admin/users',
      '/admin/servers',
    ]);
    // Staff flag wins even on an account that is also an admin.
    expect(paths(buildMenu('admin', { isAdmin: true, isStaff: true }, fromResources))).toEqual([
      '/admin/users',
      '/admin/servers',
    ]);
  });

  it('gives other users no admin entries', () => {
    expect(buildMenu('admin', USER, fromResources)).toEqual([]);
  });
});

describe('menus of spec section 2', () => {
  it('main sidebar', () => {
    expect(paths(buildMenu('main', USER))).toEqual([
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
    const menu = paths(buildMenu('server', { ...USER, serverId: '7' }));
    expect(menu).toHaveLength(12);
    expect(menu.every((path) => path.endsWith('/7'))).toBe(true);
    expect(menu).toContain('/supervisor-jobs/7');
    expect(buildMenu('server', USER)).toEqual([]);
  });

  it('web-app sidebar appends serverId/webAppId and swaps in the WordPress manager', () => {
    const ids = { ...USER, serverId: '7', webAppId: '3' };
    const plain = buildMenu('webApp', ids);
    expect(paths(plain)).toContain('/account-summary/7/3');
    expect(paths(plain)).toContain('/cache-control/7/3');
    expect(plain.find((item) => item.back)?.to).toBe('/web-applications/7');
    const wordpress = paths(buildMenu('webApp', { ...ids, isWordPress: true }));
    expect(wordpress).toContain('/wordpress-manager/7/3');
    expect(wordpress).not.toContain('/account-summary/7/3');
  });

  it('mini web-app sidebar goes back to the summary or the WordPress manager', () => {
    const ids = { ...USER, serverId: '7', webAppId: '3' };
    expect(buildMenu('appMini', ids).find((item) => item.back)?.to).toBe('/account-summary/7/3');
    expect(buildMenu('appMini', { ...ids, isWordPress: true }).find((item) => item.back)?.to).toBe(
      '/wordpress-manager/7/3',
    );
    expect(paths(buildMenu('appMini', ids))).toContain('/app-settings/7/3');
  });

  it('email, email mini and mailbox sidebars', () => {
    expect(paths(buildMenu('email', USER))).toEqual([
      '/email-accounts',
      '/autoresponders',
      '/forwarders',
      '/email-disk-usage',
    ]);
    expect(buildMenu('emailMini', USER).find((item) => item.back)?.to).toBe('/email-accounts');
    expect(paths(buildMenu('mailbox', USER))).toEqual([
      '/check-mail',
      '/compose-mail',
      '/drafts',
      '/sent-mail',
      '/spam',
      '/trash',
      '/archive',
    ]);
  });

  it('profile sidebar merges the resources’ entries without doubling them', () => {
    const menu = paths(buildMenu('profile', USER, fromResources));
    expect(menu).toEqual([
      '/dashboard',
      '/dns',
      '/3rd-party-integration',
      '/my-profile',
      '/refer-a-friend',
      '/login-activity',
      '/subscription',
      '/account-activity-log',
      '/ticket-list',
    ]);
  });

  it('adds a resource entry the fixed menu lacks, at its declared order', () => {
    const extra = {
      profile: [
        { key: 'x', label: 'Invoices', path: '/invoices', icon: 'link' as const, order: 65 },
      ],
    };
    expect(paths(buildMenu('profile', USER, extra)).indexOf('/invoices')).toBe(6);
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
