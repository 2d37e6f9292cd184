import { featureMenus } from '../routes/menus.gen';
import type { IconName, MenuEntry, MenuName, MenuPlace } from './menuTypes';

/*
 * Every menu the shell shows (spec section 2, "Menus reached from the shell"): the shell's own
 * entries below, and each feature's from its `features/<name>/menu.ts` (gathered by
 * `npm run features` into src/routes/menus.gen.ts), merged by their `order`. Paths are the
 * spec's; server and web-app menus get `/{serverId}` or `/{serverId}/{webAppId}` appended.
 * The shell's labels are i18n keys (src/i18n) and its icons names (src/shell/icons.tsx); a
 * feature carries its words in all four languages and its own icon. Entries of pages no feature
 * has yet (mail, billing) stay listed here: who sees an entry is not said here, an
 * entry shows when its page exists and `canAccess` (src/routes/access.ts) lets the user open
 * it, the same rule the navigation guard applies.
 */
export type {
  IconName,
  Labels,
  MenuDeclaration,
  MenuEntry,
  MenuIcon,
  MenuLabel,
  MenuName,
  MenuPlace,
} from './menuTypes';

/** The partner cloud provider whose plans the admin area manages (cpu types vhp-amd, vc2...). */
export const PARTNER_PROVIDER = 'vultr';

const m = (
  key: string,
  path: string,
  icon: IconName,
  order: number,
  extra: Partial<MenuEntry> = {},
): MenuEntry => ({ key, label: `shell.menu.${key}`, path, icon, order, ...extra });

/** The shell's entries: its own pages (src/pages) and the spec's pages no feature has yet. */
const SHELL: Record<MenuPlace, readonly MenuEntry[]> = {
  main: [
    m('dashboard', '/dashboard', 'dashboard', 10),
    m('activityLogs', '/activity-logs', 'activity', 20),
    m('sshKeys', '/ssh-keys', 'key', 60),
  ],
  server: [
    // Not in the spec's list: the server's home and the way back to all servers (issue 8).
    m('allServers', '/dashboard', 'back', 10, { back: true, global: true }),
    m('serverSummary', '/server-summary', 'summary', 20),
    m('activityLogs', '/activity-logs', 'activity', 30),
  ],
  webApp: [m('emails', '/emails', 'email', 50)],
  appMini: [],
  email: [
    m('emailAccounts', '/email-accounts', 'email', 10),
    m('autoresponders', '/autoresponders', 'autoresponder', 20),
    m('forwarders', '/forwarders', 'forward', 30),
    m('emailDiskUsage', '/email-disk-usage', 'disk', 40),
  ],
  emailMini: [
    m('checkMail', '/check-mail', 'inbox', 10),
    m('autoresponders', '/autoresponders', 'autoresponder', 20),
    m('forwarders', '/forwarders', 'forward', 30),
    m('emailDiskUsage', '/email-disk-usage', 'disk', 40),
    m('emailAccounts', '/email-accounts', 'back', 50, { back: true }),
  ],
  mailbox: [
    m('inbox', '/check-mail', 'inbox', 10),
    m('compose', '/compose-mail', 'compose', 20),
    m('drafts', '/drafts', 'drafts', 30),
    m('sent', '/sent-mail', 'sent', 40),
    m('spam', '/spam', 'spam', 50),
    m('trash', '/trash', 'trash', 60),
    m('archive', '/archive', 'archive', 70),
  ],
  profile: [
    m('dashboard', '/dashboard', 'dashboard', 10),
    m('myProfile', '/my-profile', 'profile', 40),
    m('loginActivity', '/login-activity', 'login', 60),
    m('subscription', '/subscription', 'subscription', 70),
    m('accountActivity', '/account-activity-log', 'activity', 80),
  ],
  admin: [
    m('adminDashboard', '/admin/dashboard', 'dashboard', 10),
    m('users', '/admin/users', 'users', 20),
    m('servers', '/admin/servers', 'servers', 30),
    m('packages', '/admin/packages', 'package', 40),
    m('coupons', '/admin/coupons', 'coupon', 50),
    m('api', '/admin/api', 'api', 60),
    m('commonScript', '/admin/911', 'script', 100),
    m('outbox', '/admin/outbox', 'mail', 110),
    m('providerPlans', `/admin/${PARTNER_PROVIDER}-plans`, 'plans', 120),
  ],
  // Header shortcuts (spec section 2).
  header: [m('myProfile', '/my-profile', 'profile', 50)],
};

/** The shell's entries and every feature's for one place, in their order. */
function merged(place: MenuPlace): MenuEntry[] {
  const fromFeatures = featureMenus.flatMap((feature) =>
    feature.menu.filter((entry) => entry.menu === place),
  );
  return [...SHELL[place], ...fromFeatures].sort((a, b) => a.order - b.order);
}

export const MENUS: Record<MenuName, readonly MenuEntry[]> = {
  main: merged('main'),
  server: merged('server'),
  webApp: merged('webApp'),
  appMini: merged('appMini'),
  email: merged('email'),
  emailMini: merged('emailMini'),
  mailbox: merged('mailbox'),
  profile: merged('profile'),
  admin: merged('admin'),
};

/** Header shortcuts (spec section 2). */
export const HEADER_SHORTCUTS: readonly MenuEntry[] = merged('header');
