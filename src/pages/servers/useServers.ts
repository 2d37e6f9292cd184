import { useGetList } from 'ra-core';
import type { Server } from '../../../resources/servers';

/** Servers on one dashboard page. */
export const SERVERS_PER_PAGE = 12;

/**
 * The user's servers (own and team), as both entry-rule pages load them. Page 1 is one query
 * key for both, so going from /no-servers to /dashboard does not fetch twice.
 */
export function useServers(page = 1, refetchInterval: number | false = false) {
  return useGetList<Server>(
    'servers',
    {
      pagination: { page, perPage: SERVERS_PER_PAGE },
      sort: { field: 'created_at', order: 'DESC' },
    },
    { refetchInterval, placeholderData: (previous) => previous },
  );
}
