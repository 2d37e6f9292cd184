import { Box, LinearProgress } from '@mui/material';
import { useGetOne } from 'ra-core';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import type { Server } from '../../../resources/servers';
import { useServerLive } from '../../live';
import { LoadError } from '../../generic/LoadState';
import { OpeningPasswords } from './OpeningPasswords';
import { ServerProvider } from './ServerContext';
import { useServerOpening } from './useServerOpening';

const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;

/**
 * The server of a server-level route: loaded (404 → the 404 page; a 403 goes to the 403 page
 * through the authProvider), opened as the spec says, then followed live.
 */
export function ServerFrame({ serverId, children }: { serverId?: string; children: ReactNode }) {
  const sid = Number(serverId);
  const valid = Number.isInteger(sid) && sid > 0;
  const {
    data: server,
    error,
    refetch,
  } = useGetOne<Server>('servers', { id: sid }, { enabled: valid, retry: false });
  const recordOnline = server?.connected ?? false;
  // After the opening (or while it waits for the server), the layout follows live reports.
  const [liveUuid, setLiveUuid] = useState<string | null>(null);
  const live = useServerLive(liveUuid);
  const online = live.connected ?? recordOnline;
  // The opening's agent steps run once the server is online.
  const opening = useServerOpening(server, online);
  const uuid = server?.uuid ?? null;
  useEffect(() => {
    setLiveUuid(uuid && opening.phase !== 'loading' ? uuid : null);
  }, [uuid, opening.phase]);

  if (!valid || statusOf(error) === 404) return <Navigate to="/404" replace />;
  if (statusOf(error) === 403) return <Navigate to="/403" replace />;
  if (error)
    return (
      <LoadError
        error={error}
        what="server"
        back={{ to: '/dashboard', label: 'Back to your servers' }}
        onRetry={() => void refetch()}
      />
    );
  if (!server) return <LinearProgress aria-label="Loading the server" />;

  return (
    <ServerProvider value={{ sid, server, live, online, refetchServer: () => void refetch() }}>
      <Box>
        <OpeningPasswords created={opening.created} onDismiss={opening.dismiss} />
        {children}
      </Box>
    </ServerProvider>
  );
}
