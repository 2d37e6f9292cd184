import type { ResourceDef, ResourceMenuEntry } from '../../resources/define';
import { matchRoute } from '../routes/match';
import { HEADER_SHORTCUTS, type IconName, MENUS, type MenuEntry, type MenuName } from './menus';

/*
 * Turns the menu data (menus.ts) into what a sidebar shows: resources' entries merged in,
 * entries filtered by role, ids appended, and only the entries whose page exists.
 */

/** One link of a rendered menu. */
export interface MenuItem {
  key: string;
  label: string;
  to: string;
  icon: IconName;
  back: boolean;
}

export interface MenuContext {
  serverId?: string;
  webAppId?: string;
  /** WordPress apps get the WordPress manager where others get the account summary. */
  isWordPress?: boolean;
  isAdmin: boolean;
  isStaff: boolean;
}

const RESOURCE_MENU: Record<ResourceMenuEntry['menu'], MenuName> = {
  main: 'main',
  profile: 'profile',
  admin: 'admin',
  server: 'server',
  app: 'webApp',
};

/** The `menu` entries resources declare, keyed by the menu they join. */
export function resourceMenuEntries(
  resources: Readonly<Record<string, ResourceDef>>,
): Partial<Record<MenuName, MenuEntry[]>> {
  const byMenu: Partial<Record<MenuName, MenuEntry[]>> = {};
  for (const resource of Object.values(resources)) {
    for (const entry of resource.menu ?? []) {
      const name = RESOURCE_MENU[entry.menu];
      (byMenu[name] ??= []).push({
        key: `${resource.name}:${entry.route}`,
        label: entry.label,
        path: entry.route,
        icon: 'link',
        order: entry.order,
        // A resource list open to staff may show in their menu; admin-only ones never do.
        staff: resource.ops.list?.guard === 'staff',
      });
    }
  }
  return byMenu;
}

/** Whether a link opens a page: a path the route table has, or a predicate in tests. */
export type PageCheck = (to: string, ctx: MenuContext) => boolean;

/**
 * A link opens a page when the route table has a route for it that this user may open: the
 * menus list every entry of the spec, and each one shows once its feature's page exists, so
 * no entry ever leads to /404.
 */
export const hasPage: PageCheck = (to, ctx) => {
  const match = matchRoute(to.split(/[?#]/)[0]!);
  if (!match) return false;
  const { access } = match.route;
  if (access === 'admin') return ctx.isAdmin;
  if (access === 'staff') return ctx.isAdmin || ctx.isStaff;
  return access === 'user' || access === 'open';
};

/** The header shortcuts whose page exists. */
export function shownShortcuts(ctx: MenuContext, check: PageCheck = hasPage): MenuEntry[] {
  return HEADER_SHORTCUTS.filter((entry) => check(entry.path, ctx));
}

/** Where Upgrade to Pro leads; the offer shows once that page exists. */
export const UPGRADE_PATH = '/pricing';

function withIds(name: MenuName, entry: MenuEntry, ctx: MenuContext): string | null {
  const { path } = entry;
  if (entry.global) return path;
  if (name === 'server') return ctx.serverId ? `${path}/${ctx.serverId}` : null;
  if (name === 'webApp' || name === 'appMini') {
    // The list of accounts belongs to the server, not to one app.
    if (path === '/web-applications') return ctx.serverId ? `${path}/${ctx.serverId}` : null;
    return ctx.serverId && ctx.webAppId ? `${path}/${ctx.serverId}/${ctx.webAppId}` : null;
  }
  return path;
}

function visibleTo(name: MenuName, entry: MenuEntry, ctx: MenuContext): boolean {
  if (name !== 'admin') return true;
  if (ctx.isStaff) return entry.staff === true;
  return ctx.isAdmin;
}

/** WordPress apps: the manager takes the account summary's place (spec section 2). */
function forAppKind(entry: MenuEntry, ctx: MenuContext): MenuEntry {
  if (!ctx.isWordPress || entry.path !== '/account-summary') return entry;
  return {
    ...entry,
    key: 'wordpressManager',
    label: 'shell.menu.wordpressManager',
    path: '/wordpress-manager',
    icon: entry.back ? 'back' : 'wordpress',
  };
}

/**
 * A menu ready to render: the fixed entries and the resources' entries (a resource entry for a
 * path the fixed menu already has is the same page and is dropped), filtered by role, ordered,
 * with ids appended, kept only when `check` finds their page (the route table by default).
 */
export function buildMenu(
  name: MenuName,
  ctx: MenuContext,
  fromResources: Partial<Record<MenuName, MenuEntry[]>> = {},
  check: PageCheck = hasPage,
): MenuItem[] {
  const fixed = MENUS[name];
  const known = new Set(fixed.map((entry) => entry.path));
  const extra = (fromResources[name] ?? []).filter((entry) => !known.has(entry.path));
  const items: MenuItem[] = [];
  for (const entry of [...fixed, ...extra].sort((a, b) => a.order - b.order)) {
    if (!visibleTo(name, entry, ctx)) continue;
    const shown = forAppKind(entry, ctx);
    const to = withIds(name, shown, ctx);
    if (to === null || !check(to, ctx)) continue;
    items.push({
      key: shown.key,
      label: shown.label,
      to,
      icon: shown.icon,
      back: shown.back === true,
    });
  }
  return items;
}
