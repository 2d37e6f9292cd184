import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { menu as cronMenu } from '../../features/cron/menu';
import { LOCALES, type LocaleCode } from '../../src/i18n';
import { de } from '../../src/i18n/de';
import { en } from '../../src/i18n/en';
import { es } from '../../src/i18n/es';
import { it as italian } from '../../src/i18n/it';
import type { MessageTree } from '../../src/i18n/merge';
import type { AccessOf } from '../../src/routes/access';
import { featureMenus } from '../../src/routes/menus.gen';
import { type MenuContext, buildMenu } from '../../src/shell/buildMenu';
import { HEADER_SHORTCUTS, MENUS } from '../../src/shell/menus';

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
      '/admin/module-sittings',
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

  it('has a label in all four languages for every entry', () => {
    const trees: Record<LocaleCode, MessageTree> = { en, de, es, it: italian };
    const at = (tree: MessageTree, key: string) =>
      key
        .split('.')
        .reduce<MessageTree | string | undefined>(
          (node, part) => (typeof node === 'object' ? node[part] : undefined),
          tree,
        );
    for (const entry of [...Object.values(MENUS).flat(), ...HEADER_SHORTCUTS]) {
      for (const { locale } of LOCALES) {
        const { label } = entry;
        const words = typeof label === 'string' ? at(trees[locale], label) : label[locale];
        expect(words, `${entry.key} (${locale})`).toBeTypeOf('string');
        expect(String(words).trim(), `${entry.key} (${locale})`).not.toBe('');
      }
    }
  });

  it('keeps one entry per key and per place in each menu', () => {
    for (const [name, entries] of Object.entries({ ...MENUS, header: HEADER_SHORTCUTS })) {
      // The WordPress manager shares its place with the summary it replaces.
      const plain = entries.filter((entry) => !entry.onlyFor);
      expect(new Set(plain.map((e) => e.key)).size, name).toBe(plain.length);
      expect(new Set(plain.map((e) => e.order)).size, name).toBe(plain.length);
    }
  });
});

describe('menu entries declared by the feature folders', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');

  it('gathers every features/<name>/menu.ts, and only those', () => {
    const folders = readdirSync(path.join(ROOT, 'features')).filter((name) =>
      existsSync(path.join(ROOT, 'features', name, 'menu.ts')),
    );
    expect(featureMenus.map((feature) => feature.feature).sort()).toEqual(folders.sort());
  });

  it("shows cron's entries, words and icon from its folder alone", () => {
    expect(featureMenus.find((feature) => feature.feature === 'cron')?.menu).toBe(cronMenu);
    const main = menu('main', USER).find((item) => item.to === '/cron-job');
    expect(main?.label).toEqual({
      en: 'Cron Jobs',
      de: 'Cronjobs',
      es: expect.any(String),
      it: expect.any(String),
    });
    expect(main?.icon).toBe(cronMenu[0]?.icon);
    expect(menu('server', { ...USER, serverId: '7' }).map((item) => item.to)).toContain(
      '/cron-jobs/7',
    );
    // Neither the shell's menus nor its icons or i18n name it.
    for (const file of ['src/shell/menus.ts', 'src/shell/icons.tsx', 'src/i18n/en.ts']) {
      expect(readFileSync(path.join(ROOT, file), 'utf8'), file).not.toMatch(/cron/i);
    }
  });
});
