import type { RouteDef } from '../../src/routes/types';

/** The pages of DNS (issue 4); /dns and /dns-records follow the entry rule. */
export const routes: readonly RouteDef[] = [
  {
    path: '/dns',
    layout: 'profile',
    access: 'user',
    title: 'DNS',
    page: () => import('./DnsPage'),
  },
  {
    path: '/dns-records',
    layout: 'profile',
    access: 'user',
    title: 'DNS records',
    page: () => import('./DnsRecordsPage'),
  },
  {
    path: '/add-dns/:id',
    layout: 'profile',
    access: 'user',
    title: 'Add a DNS record',
    page: () => import('./AddDnsPage'),
  },
];
