import type { RouteDef } from '../../src/routes/types';

/** An app's FTP accounts (spec "FTP"), in the web-app layout. */
export const routes: RouteDef[] = [
  {
    path: '/ftp-accounts/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'FTP accounts',
    page: () => import('./FtpAccountsPage'),
  },
];
