import type { RouteDef } from '../types';

/** The pages of third-party keys and DNS (issue 4); /dns and /dns-records follow the entry rule. */
export const dnsRoutes: readonly RouteDef[] = [
  {
    path: '/3rd-party-integration',
    layout: 'profile',
    access: 'user',
    title: '3rd-party integrations',
    page: () => import('../../pages/integrations/IntegrationsPage'),
  },
  {
    path: '/3rd-party-api-key',
    layout: 'profile',
    access: 'user',
    title: '3rd-party API key',
    page: () => import('../../pages/integrations/ApiKeyPage'),
  },
  {
    path: '/dns',
    layout: 'profile',
    access: 'user',
    title: 'DNS',
    page: () => import('../../pages/dns/DnsPage'),
  },
  {
    path: '/dns-records',
    layout: 'profile',
    access: 'user',
    title: 'DNS records',
    page: () => import('../../pages/dns/DnsRecordsPage'),
  },
  {
    path: '/add-dns/:id',
    layout: 'profile',
    access: 'user',
    title: 'Add a DNS record',
    page: () => import('../../pages/dns/AddDnsPage'),
  },
];
