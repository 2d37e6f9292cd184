import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, TextField } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useDelete, useNotify } from 'ra-core';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isPendingInstall } from '../../../resources/servers';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { ServerFacts } from './ServerFacts';
import { ServerTitle } from './ServerTitle';
import { shownName } from './serverName';
import { ServerStatusChip } from './ServerStatusChip';
import { useServer } from './useServer';

/**
 * /remove-server/{id}: removing a server is confirmed by typing its name, the one the user sees
 * (a pending server's chosen name rather than its `cs-` name, which shows under it). A connected
 * agent is stopped and removed from the server; what the server hosts stays on it.
 */
export default function RemoveServerPage() {
  const { id } = useParams();
  const { data: server } = useServer(id);
  const [typed, setTyped] = useState('');
  const notify = useNotify();
  const navigate = useNavigate();
  const [remove, { isPending: removing }] = useDelete();

  if (!server) {
    return (
      <Box sx={{ maxWidth: 760, mx: 'auto' }}>
        <PageHeader title="Remove server" />
        <Skeleton variant="rounded" height={260} />
      </Box>
    );
  }

  const title = shownName(server);
  // Never empty (shownName falls back to the record's name), so nothing typed never confirms.
  const matches = title.name.length > 0 && typed.trim() === title.name;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!matches || removing) return;
    void remove(
      'servers',
      { id: server.id, previousData: server },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`${title.name} was removed.`, { type: 'success' });
          // The dashboard's entry rule goes on to /no-servers when this was the last one.
          navigate('/dashboard', { replace: true });
        },
        onError: (error) =>
          notify(errorMessage(error, 'The server could not be removed.'), { type: 'error' }),
      },
    );
  };

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader title={`Remove ${title.name}`} />
      <Card variant="outlined" component="form" onSubmit={submit} aria-label="Remove server">
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
            <ServerTitle title={title} />
            <ServerStatusChip server={server} />
          </Stack>
          <ServerFacts server={server} />
          <Alert severity="warning" sx={{ mt: 3 }}>
            {server.connected ? (
              <>
                The agent on this server is connected: it will be stopped and removed from the
                server (its service, configuration and files under /opt/stackdeck).
              </>
            ) : isPendingInstall(server) ? (
              <>
                The agent was never installed. The install command stops working, and the install
                progress is deleted.
              </>
            ) : (
              <>
                The agent is offline, so it cannot remove itself now: stop it on the server with{' '}
                <code>service stackdeck-agent stop</code> and delete /opt/stackdeck.
              </>
            )}{' '}
            The server itself, its web apps, databases and files stay as they are; only the panel
            forgets it, with its install progress and activity log.
          </Alert>
          <TextField
            sx={{ mt: 3 }}
            fullWidth
            label="Type the server's name to confirm"
            placeholder={title.name}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            slotProps={{ htmlInput: { spellCheck: false } }}
            helperText={
              <>
                Type <strong>{title.name}</strong>
              </>
            }
          />
          <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
            <Button component={Link} to="/dashboard">
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              color="error"
              startIcon={<DeleteOutline />}
              disabled={!matches || removing}
            >
              Remove server
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
