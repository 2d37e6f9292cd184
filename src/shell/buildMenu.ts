import { type AccessOf, canOpen } from '../routes/access';
import { routeAccessOf } from '../routes/match';
import { HEADER_SHORTCUTS, MENUS } from './menus';
import type { MenuEntry, MenuIcon, MenuLabel, MenuName } from './menuTypes';

/*
 * Turns the menu data (menus.ts) into what a sidebar shows: ids appended, and only the entries
 * whose page exists and that the user may open, by the one rule the navigation guard applies
 * (`canAccess`, src/routes/access.ts).
 */

/** One link of a rendered menu. */
export interface MenuItem {
  key: string;
  /** An i18n key (the shell's entries) or the words of a feature's entry (menuLabel.ts). */
  label: MenuLabel;
  to: string;
  icon: MenuIcon;
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
    // A server's page (the list of its apps) takes the server id only.
    if (entry.serverPage) return ctx.serverId ? `${path}/${ctx.serverId}` : null;
    return ctx.serverId && ctx.webAppId ? `${path}/${ctx.serverId}/${ctx.webAppId}` : null;
  }
  return path;
}

/**
 * The entries for this kind of app: an entry `onlyFor` a kind (the WordPress manager) shows for
 * those apps only, in place of the entry it `replaces` (the app summary; spec section 2).
 */
function forAppKind(entries: readonly MenuEntry[], ctx: MenuContext): MenuEntry[] {
  const kind = ctx.isWordPress ? 'wordpress' : undefined;
  const replaced = new Set(
    entries.filter((entry) => entry.onlyFor && entry.onlyFor === kind).map((e) => e.replaces),
  );
  return entries.filter(
    (entry) => (!entry.onlyFor || entry.onlyFor === kind) && !replaced.has(entry.key),
  );
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
  for (const entry of forAppKind(MENUS[name], ctx)) {
    const to = withIds(name, entry, ctx);
    if (to === null || !hasPage(to, ctx, accessOf)) continue;
    items.push({
      key: entry.key,
      label: entry.label,
      to,
      icon: entry.icon,
      back: entry.back === true,
    });
  }
  return items;
}
