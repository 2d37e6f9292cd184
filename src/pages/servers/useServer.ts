import { useEffect } from 'react';
import { useGetOne } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import type { Server } from '../../../resources/servers';

/** The id of a route's `:id`, or null when it is not a server id at all. */
export function serverIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * One server by the route's id. A 404 (not a server, or one this user may not see) opens the
 * 404 page, as the spec asks of every server fetch; a 403 goes through the auth provider.
 */
export function useServer(param: string | undefined, refetchInterval: number | false = false) {
  const id = serverIdOf(param);
  const navigate = useNavigate();
  const result = useGetOne<Server>(
    'servers',
    { id: id ?? 0 },
    { enabled: id !== null, retry: false, refetchInterval },
  );
  const status = (result.error as { status?: number } | null)?.status;
  useEffect(() => {
    if (id === null || status === 404) navigate('/404', { replace: true });
  }, [id, status, navigate]);
  return { ...result, id };
}
