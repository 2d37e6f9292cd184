import { type AccessOf, canOpen } from '../routes/access';
import { routeAccessOf } from '../routes/match';
import { HEADER_SHORTCUTS, type IconName, MENUS, type MenuEntry, type MenuName } from './menus';

/*
 * Turns the menu data (menus.ts) into what a sidebar shows: ids appended, and only the entries
 * whose page exists and that the user may open, by the one rule the navigation guard applies
 * (`canAccess`, src/routes/access.ts).
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

const roleOf = (ctx: MenuContext) => ({
  signedIn: true,
  isAdmin: ctx.isAdmin,
  isStaff: ctx.isStaff,
});

/**
 * A link opens a page when the route table has a route for it that this user may open: the
 * menus list every entry of the spec, and each one shows once its feature's page exists, so
 * no entry ever leads to /404.
 */
export function hasPage(to: string, ctx: MenuContext, accessOf: AccessOf = routeAccessOf) {
  return canOpen(to, roleOf(ctx), accessOf);
}

/** The header shortcuts whose page exists and the user may open. */
export function shownShortcuts(ctx: MenuContext, accessOf: AccessOf = routeAccessOf): MenuEntry[] {
  return HEADER_SHORTCUTS.filter((entry) => hasPage(entry.path, ctx, accessOf));
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
 * A menu ready to render: its entries in order, with ids appended, kept only when the page
 * exists and the user may open it (`accessOf` finds the page's access: the route table).
 */
export function buildMenu(
  name: MenuName,
  ctx: MenuContext,
  accessOf: AccessOf = routeAccessOf,
): MenuItem[] {
  const items: MenuItem[] = [];
  for (const entry of [...MENUS[name]].sort((a, b) => a.order - b.order)) {
    const shown = forAppKind(entry, ctx);
    const to = withIds(name, shown, ctx);
    if (to === null || !hasPage(to, ctx, accessOf)) continue;
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
