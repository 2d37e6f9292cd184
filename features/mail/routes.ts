import type { RouteDef } from '../../src/routes/types';

/** An app's mailboxes (spec s.7 "Mail"), in the web-app layout; the shell's `emails` entry leads here. */
export const routes: RouteDef[] = [
  {
    path: '/emails/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Email accounts',
    page: () => import('./MailboxesPage'),
  },
  {
    path: '/email-authentication/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Email authentication',
    page: () => import('./EmailAuthenticationPage'),
  },
  // The account-wide email pages (spec s.2 "Email sidebar"), in the email layout: the sidebar
  // shows an entry only where a route exists.
  {
    path: '/email-accounts',
    layout: 'email',
    access: 'user',
    title: 'Email accounts',
    page: () => import('./EmailAccountsPage'),
  },
  {
    path: '/autoresponders',
    layout: 'email',
    access: 'user',
    title: 'Autoresponders',
    page: () => import('./AutorespondersPage'),
  },
  {
    path: '/forwarders',
    layout: 'email',
    access: 'user',
    title: 'Forwarders',
    page: () => import('./ForwardersPage'),
  },
  {
    path: '/email-disk-usage',
    layout: 'email',
    access: 'user',
    title: 'Email disk usage',
    page: () => import('./DiskUsagePage'),
  },
  // The webmail (spec s.2 "Mailbox sidebar"): one page per folder, and compose.
  ...(
    [
      ['/check-mail', 'Inbox'],
      ['/drafts', 'Drafts'],
      ['/sent-mail', 'Sent mail'],
      ['/spam', 'Spam'],
      ['/trash', 'Trash'],
      ['/archive', 'Archive'],
    ] as const
  ).map(([path, title]): RouteDef => ({
    path,
    layout: 'email',
    sidebar: 'mailbox',
    access: 'user',
    title,
    page: () => import('./FolderPage'),
  })),
  {
    path: '/compose-mail',
    layout: 'email',
    sidebar: 'mailbox',
    access: 'user',
    title: 'Compose',
    page: () => import('./ComposePage'),
  },
];
