import type { RouteDef } from '../../src/routes/types';

/**
 * The web-app pages (spec "Web apps"): the server's apps and the empty state between which
 * /web-applications/{id} and /no-webapplications/{id} switch, the form that creates one, and
 * an app's summary in the web-app layout.
 */
export const routes: RouteDef[] = [
  {
    path: '/web-applications/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Web apps',
    page: () => import('./WebAppsPage'),
  },
  {
    path: '/no-webapplications/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Web apps',
    page: () => import('./NoWebAppsPage'),
  },
  {
    path: '/no-domains/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Domains',
    page: () => import('./NoDomainsPage'),
  },
  {
    path: '/create-web-app/:id',
    layout: 'webApp',
    access: 'user',
    title: 'Create a web app',
    page: () => import('./CreateWebAppPage'),
  },
  {
    path: '/account-summary/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'App summary',
    page: () => import('./AccountSummaryPage'),
  },
  {
    path: '/sub-domains/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Sub-domains',
    page: () => import('./SubDomainsPage'),
  },
  {
    path: '/domains/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Domains',
    page: () => import('./DomainsPage'),
  },
  {
    path: '/app-settings/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'App settings',
    page: () => import('./AppSettingsPage'),
  },
  {
    path: '/web-applications',
    layout: 'main',
    access: 'user',
    title: 'Web apps',
    page: () => import('./AllWebAppsPage'),
  },
  {
    path: '/create-account/:id',
    layout: 'webApp',
    access: 'user',
    title: 'New system user and web app',
    page: () => import('./CreateAccountPage'),
  },
  {
    path: '/cache-control/:serverId/:webAppId',
    layout: 'secondary',
    access: 'user',
    title: 'Web cache',
    page: () => import('./CacheControlPage'),
  },
];
