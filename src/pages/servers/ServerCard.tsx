import { useEffect, useState } from 'react';
import { Box, Button, Card, CardActions, CardContent, Stack, Typography } from '@mui/material';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { Link } from 'react-router-dom';
import { type Server, isPendingInstall } from '../../../resources/servers';
import { useServerLive } from '../../live';
import { ServerCardMenu } from './ServerCardMenu';
import { ServerFacts } from './ServerFacts';
import { ServerLiveFigures } from './ServerLiveFigures';
import { ServerTitle } from './ServerTitle';
import { shownName } from './serverName';
import { ServerStatusChip } from './ServerStatusChip';
import { TransferDialog } from './TransferDialog';

/**
 * One server on the dashboard: what it is, where it is, and whether its agent is there right
 * now (from the live feed, the record until the feed answers), with its live load, memory and
 * disk. `onStale` asks for the list again when the feed and the record disagree (a pending
 * server that just connected is renamed).
 * A pending server shows the name the user chose, its `cs-` name under it.
 */
export function ServerCard({ server, onStale }: { server: Server; onStale?: () => void }) {
  const live = useServerLive(server.uuid);
  const connected = live.connected ?? server.connected;
  const pending = isPendingInstall({ name: server.name, connected });
  const title = shownName(server);
  const [transferring, setTransferring] = useState(false);
  const stale = live.connected !== null && live.connected !== server.connected;
  useEffect(() => {
    if (stale) onStale?.();
  }, [stale, onStale]);
  const shown = live.report
    ? { ...server, os_version: server.os_version ?? live.report.os }
    : server;

  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={title.name}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
          <Box
            sx={{
              width: 40,
              height: 40,
              borderRadius: 1.5,
              bgcolor: pending ? 'action.selected' : 'primary.main',
              color: pending ? 'text.secondary' : 'primary.contrastText',
              display: 'grid',
              placeItems: 'center',
              flexShrink: 0,
            }}
          >
            <DnsOutlined fontSize="small" />
          </Box>
          <ServerTitle title={title} variant="subtitle1" sx={{ fontWeight: 600 }} />
          <ServerStatusChip server={server} connected={connected} />
        </Stack>
        <ServerFacts server={shown} />
        {connected && live.report ? <ServerLiveFigures report={live.report} /> : null}
        {server.is_shared ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1.5 }}>
            Shared with you by your team
          </Typography>
        ) : null}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 1.5, justifyContent: 'space-between' }}>
        {pending ? (
          <Button component={Link} to={`/server-install/${server.id}`} size="small">
            Finish install
          </Button>
        ) : (
          <Button component={Link} to={`/server-summary/${server.id}`} size="small">
            Open
          </Button>
        )}
        <ServerCardMenu
          server={server}
          pending={pending}
          onTransfer={() => setTransferring(true)}
        />
      </CardActions>
      {transferring ? (
        <TransferDialog server={server} onClose={() => setTransferring(false)} />
      ) : null}
    </Card>
  );
}
