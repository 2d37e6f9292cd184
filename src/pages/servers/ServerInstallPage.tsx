import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Skeleton, Stack } from '@mui/material';
import Replay from '@mui/icons-material/Replay';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import type { installScriptSchema } from '../../../resources/servers';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { InstallCommandCard } from './InstallCommandCard';
import { InstallConnected } from './InstallConnected';
import { InstallProgress } from './InstallProgress';
import { shownName } from './serverName';
import { ServerStatusChip } from './ServerStatusChip';
import { INSTALL_POLL_MS, installState, useInstallEvents } from './useInstallEvents';
import { useServer } from './useServer';

type InstallScript = z.infer<typeof installScriptSchema>;

/**
 * /server-install/{id}: the install command and script, the install's progress as its events
 * arrive (read every second while the page is open), and the connection at the end.
 */
export default function ServerInstallPage() {
  const { id: param } = useParams();
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [connectedSeen, setConnectedSeen] = useState(false);
  const { data: server, id } = useServer(param, connectedSeen ? false : INSTALL_POLL_MS);
  const connected = server?.connected ?? false;

  const script = useQuery({
    queryKey: ['servers', 'script', id],
    enabled: id !== null && server !== undefined && !connected && !connectedSeen,
    retry: false,
    staleTime: Infinity,
    queryFn: () =>
      dataProvider.action<InstallScript>('servers', 'lifecycle', {
        query: { action: 'script', sid: id },
      }),
  });
  const installedAlready = (script.error as { status?: number } | null)?.status === 409;

  const events = useInstallEvents(id, !connectedSeen && !installedAlready);
  // Connected: the polls stop, after one last read for the steps since the previous poll.
  useEffect(() => {
    if (!connected) return;
    setConnectedSeen(true);
    void queryClient.invalidateQueries({ queryKey: ['servers', 'events', id] });
  }, [connected, id, queryClient]);
  const { failed } = installState(events.data);

  // Opening the page of a server whose install has not begun marks it started (`action=install`).
  const started = useRef(false);
  const [restarting, setRestarting] = useState(false);
  const markStarted = async () => {
    await dataProvider.action('servers', 'lifecycle', { query: { action: 'install', sid: id } });
    await queryClient.invalidateQueries({ queryKey: ['servers', 'events', id] });
  };
  useEffect(() => {
    if (started.current || !script.isSuccess || !events.isSuccess) return;
    if (events.data.length > 0) return;
    started.current = true;
    markStarted().catch((error: unknown) =>
      notify(errorMessage(error, 'The install could not be started.'), { type: 'error' }),
    );
    // markStarted only closes over stable values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script.isSuccess, events.isSuccess, events.data]);

  const startOver = async () => {
    setRestarting(true);
    try {
      await markStarted();
    } catch (error) {
      notify(errorMessage(error, 'The install could not be started again.'), { type: 'error' });
    } finally {
      setRestarting(false);
    }
  };

  const title = server ? shownName(server) : null;
  return (
    <Box sx={{ maxWidth: 900, mx: 'auto' }}>
      <PageHeader
        title={title ? `Install ${title.name}` : 'Install the agent'}
        description={
          <>
            {title?.id ? (
              <>
                <Box component="span" data-testid="server-id" sx={{ fontFamily: 'monospace' }}>
                  {title.id}
                </Box>
                {' · '}
              </>
            ) : null}
            Run the command on the server; the steps below follow the install as it happens.
          </>
        }
        actions={server ? <ServerStatusChip server={server} /> : null}
      />
      {!server ? (
        <Skeleton variant="rounded" height={220} />
      ) : (
        <Stack spacing={3}>
          {connected || connectedSeen ? <InstallConnected server={server} /> : null}
          {installedAlready && !connected ? (
            <Alert severity="warning">
              The agent of this server is installed already but not connected right now. Check that
              the server is up and can reach this panel, or{' '}
              <Link to={`/remove-server/${server.id}`}>remove the server</Link>.
            </Alert>
          ) : null}
          {script.error && !installedAlready ? (
            <Alert severity="error">
              {errorMessage(script.error, 'The install command could not be loaded.')}
            </Alert>
          ) : null}
          {script.data && !connected && !connectedSeen ? (
            <InstallCommandCard command={script.data.command} script={script.data.script} />
          ) : null}
          {events.data && !installedAlready ? (
            <InstallProgress
              events={events.data}
              connected={connected || connectedSeen}
              action={
                failed ? (
                  <Button
                    size="small"
                    variant="outlined"
                    color="inherit"
                    startIcon={<Replay />}
                    onClick={() => void startOver()}
                    disabled={restarting}
                  >
                    Start over
                  </Button>
                ) : null
              }
            />
          ) : null}
        </Stack>
      )}
    </Box>
  );
}
