/**
 * Every menu the shell shows (spec section 2, "Menus reached from the shell"), as data. Paths
 * are the spec's; server and web-app menus get `/{serverId}` or `/{serverId}/{webAppId}`
 * appended. Labels are i18n keys (src/i18n), icons are names resolved by src/shell/icons.tsx
 * so this file stays free of React and loads in unit tests. Who sees an entry is not said here:
 * an entry shows when its page exists and `canAccess` (src/routes/access.ts) lets the user
 * open it, the same rule the navigation guard applies.
 */
export type MenuName =
  | 'main'
  | 'server'
  | 'webApp'
  | 'appMini'
  | 'email'
  | 'emailMini'
  | 'mailbox'
  | 'profile'
  | 'admin';

export type IconName =
  | 'dashboard'
  | 'activity'
  | 'cron'
  | 'database'
  | 'php'
  | 'key'
  | 'apps'
  | 'security'
  | 'services'
  | 'hostname'
  | 'users'
  | 'stats'
  | 'supervisor'
  | 'summary'
  | 'wordpress'
  | 'git'
  | 'folder'
  | 'ftp'
  | 'email'
  | 'domain'
  | 'ssl'
  | 'dbUsers'
  | 'subdomain'
  | 'settings'
  | 'log'
  | 'cache'
  | 'autoresponder'
  | 'forward'
  | 'disk'
  | 'inbox'
  | 'compose'
  | 'drafts'
  | 'sent'
  | 'spam'
  | 'trash'
  | 'archive'
  | 'dns'
  | 'integration'
  | 'profile'
  | 'referral'
  | 'login'
  | 'subscription'
  | 'support'
  | 'servers'
  | 'package'
  | 'coupon'
  | 'api'
  | 'script'
  | 'plans'
  | 'mail'
  | 'backup'
  | 'team'
  | 'back'
  | 'link'
  | 'alert';

export interface MenuEntry {
  key: string;
  /** i18n key; resource entries carry their plain label instead. */
  label: string;
  path: string;
  icon: IconName;
  order: number;
  /** A way back up (shown apart from the other entries). */
  back?: boolean;
  /** A panel-wide page: no server or web-app id is appended (the server sidebar's way back). */
  global?: boolean;
}

/** The partner cloud provider whose plans the admin area manages (cpu types vhp-amd, vc2...). */
export const PARTNER_PROVIDER = 'vultr';

const entries = (list: readonly Omit<MenuEntry, 'order'>[]): MenuEntry[] =>
  list.map((entry, index) => ({ ...entry, order: (index + 1) * 10 }));

const m = (key: string, path: string, icon: IconName, extra: Partial<MenuEntry> = {}) => ({
  key,
  label: `shell.menu.${key}`,
  path,
  icon,
  ...extra,
});

export const MENUS: Record<MenuName, readonly MenuEntry[]> = {
  main: entries([
    m('dashboard', '/dashboard', 'dashboard'),
    m('activityLogs', '/activity-logs', 'activity'),
    m('cronJobs', '/cron-job', 'cron'),
    m('databases', '/database-list', 'database'),
    m('easyPhp', '/easyphp', 'php'),
    m('sshKeys', '/ssh-keys', 'key'),
    m('webApplications', '/web-applications', 'apps'),
  ]),
  server: entries([
    // Not in the spec's list: the server's home and the way back to all servers (issue 8).
    m('allServers', '/dashboard', 'back', { back: true, global: true }),
    m('serverSummary', '/server-summary', 'summary'),
    m('activityLogs', '/activity-logs', 'activity'),
    m('webApplications', '/web-applications', 'apps'),
    m('databases', '/database-list', 'database'),
    m('cronJobs', '/cron-jobs', 'cron'),
    m('easyPhp', '/easy-php', 'php'),
    m('sshKeys', '/ssh-keys', 'key'),
    m('security', '/security', 'security'),
    m('services', '/services', 'services'),
    m('hostname', '/hostname', 'hostname'),
    m('systemUsers', '/system-users', 'users'),
    m('serverStats', '/server-stats', 'stats'),
    m('supervisorJobs', '/supervisor-jobs', 'supervisor'),
  ]),
  webApp: entries([
    m('accountSummary', '/account-summary', 'summary'),
    m('git', '/git', 'git'),
    m('fileManager', '/file-manager', 'folder'),
    m('ftpAccounts', '/ftp-accounts', 'ftp'),
    m('emails', '/emails', 'email'),
    m('domains', '/domains', 'domain'),
    m('sslCertificates', '/ssl-certificates', 'ssl'),
    m('appDatabases', '/app-database-list', 'database'),
    m('subDomains', '/sub-domains', 'subdomain'),
    m('appSettings', '/app-settings', 'settings'),
    m('webServerLog', '/web-server-log', 'log'),
    m('cacheControl', '/cache-control', 'cache'),
    m('allAccounts', '/web-applications', 'back', { back: true }),
  ]),
  appMini: entries([
    m('accountSummary', '/account-summary', 'back', { back: true }),
    m('git', '/git', 'git'),
    m('fileManager', '/file-manager', 'folder'),
    m('ftpAccounts', '/ftp-accounts', 'ftp'),
    m('domains', '/domains', 'domain'),
    m('sslCertificates', '/ssl-certificates', 'ssl'),
    m('subDomains', '/sub-domains', 'subdomain'),
    m('webServerLog', '/web-server-log', 'log'),
    m('appSettings', '/app-settings', 'settings'),
  ]),
  email: entries([
    m('emailAccounts', '/email-accounts', 'email'),
    m('autoresponders', '/autoresponders', 'autoresponder'),
    m('forwarders', '/forwarders', 'forward'),
    m('emailDiskUsage', '/email-disk-usage', 'disk'),
  ]),
  emailMini: entries([
    m('checkMail', '/check-mail', 'inbox'),
    m('autoresponders', '/autoresponders', 'autoresponder'),
    m('forwarders', '/forwarders', 'forward'),
    m('emailDiskUsage', '/email-disk-usage', 'disk'),
    m('emailAccounts', '/email-accounts', 'back', { back: true }),
  ]),
  mailbox: entries([
    m('inbox', '/check-mail', 'inbox'),
    m('compose', '/compose-mail', 'compose'),
    m('drafts', '/drafts', 'drafts'),
    m('sent', '/sent-mail', 'sent'),
    m('spam', '/spam', 'spam'),
    m('trash', '/trash', 'trash'),
    m('archive', '/archive', 'archive'),
  ]),
  profile: entries([
    m('dashboard', '/dashboard', 'dashboard'),
    m('dns', '/dns', 'dns'),
    m('integrations', '/3rd-party-integration', 'integration'),
    m('myProfile', '/my-profile', 'profile'),
    m('referAFriend', '/refer-a-friend', 'referral'),
    m('loginActivity', '/login-activity', 'login'),
    m('subscription', '/subscription', 'subscription'),
    m('accountActivity', '/account-activity-log', 'activity'),
    m('support', '/ticket-list', 'support'),
    m('alerts', '/alerts', 'alert'),
    m('alertSettings', '/alert-settings', 'settings'),
  ]),
  admin: entries([
    m('adminDashboard', '/admin/dashboard', 'dashboard'),
    m('users', '/admin/users', 'users'),
    m('servers', '/admin/servers', 'servers'),
    m('packages', '/admin/packages', 'package'),
    m('coupons', '/admin/coupons', 'coupon'),
    m('api', '/admin/api', 'api'),
    m('phpManagement', '/admin/php-management', 'php'),
    m('appReleases', '/admin/app-releases', 'apps'),
    m('referrals', '/admin/referrals', 'referral'),
    m('commonScript', '/admin/911', 'script'),
    m('outbox', '/admin/outbox', 'mail'),
    m('providerPlans', `/admin/${PARTNER_PROVIDER}-plans`, 'plans'),
  ]),
};

/** Header shortcuts (spec section 2). */
export const HEADER_SHORTCUTS: readonly MenuEntry[] = entries([
  m('dns', '/dns', 'dns'),
  m('backup', '/backup', 'backup'),
  m('team', '/team', 'team'),
  m('support', '/ticket-list', 'support'),
  m('myProfile', '/my-profile', 'profile'),
]);
