import type { RouteDef } from '../../src/routes/types';

/** The pages of third-party keys and DNS (issue 4); /dns and /dns-records follow the entry rule. */
export const routes: readonly RouteDef[] = [
  {
    path: '/3rd-party-integration',
    layout: 'profile',
    access: 'user',
    title: '3rd-party integrations',
    page: () => import('../../src/pages/integrations/IntegrationsPage'),
  },
  {
    path: '/3rd-party-api-key',
    layout: 'profile',
    access: 'user',
    title: '3rd-party API key',
    page: () => import('../../src/pages/integrations/ApiKeyPage'),
  },
  {
    path: '/dns',
    layout: 'profile',
    access: 'user',
    title: 'DNS',
    page: () => import('../../src/pages/dns/DnsPage'),
  },
  {
    path: '/dns-records',
    layout: 'profile',
    access: 'user',
    title: 'DNS records',
    page: () => import('../../src/pages/dns/DnsRecordsPage'),
  },
  {
    path: '/add-dns/:id',
    layout: 'profile',
    access: 'user',
    title: 'Add a DNS record',
    page: () => import('../../src/pages/dns/AddDnsPage'),
  },
];
