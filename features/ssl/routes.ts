import type { RouteDef } from '../../src/routes/types';

/** An app's SSL pages (spec "SSL and hostname"), in the web-app layout. */
export const routes: RouteDef[] = [
  {
    path: '/ssl-certificates/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'SSL certificates',
    page: () => import('./SslCertificatesPage'),
  },
  {
    path: '/install-ssl/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Install SSL',
    page: () => import('./InstallSslPage'),
  },
  {
    path: '/update-certificate/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Update certificate',
    page: () => import('./UpdateCertificatePage'),
  },
];
