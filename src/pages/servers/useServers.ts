import { useGetList } from 'ra-core';
import type { Server } from '../../../resources/servers';

/**
 * The user's servers (own and team), as both entry-rule pages load them. One query key, so
 * going from /no-servers to /dashboard does not fetch twice.
 */
export function useServers() {
  return useGetList<Server>('servers', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'created_at', order: 'DESC' },
  });
}
