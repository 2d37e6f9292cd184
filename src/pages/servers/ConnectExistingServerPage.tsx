import { Alert, Box, Button, Card, CardContent, Skeleton, Stack } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { Link, useParams } from 'react-router-dom';
import { type Server, isPendingInstall } from '../../../resources/servers';
import { PageHeader } from '../../generic/PageHeader';
import { PendingServerForm } from './PendingServerForm';
import { ServerFacts } from './ServerFacts';
import { ServerTitle } from './ServerTitle';
import { shownName } from './serverName';
import { ServerStatusChip } from './ServerStatusChip';
import { useServer } from './useServer';

/**
 * /connect-server/{id}: back to a server created earlier. A pending one (of the user's own) can
 * still be named and described, then continues to its install; a connected one is there already.
 */
export default function ConnectExistingServerPage() {
  const { id } = useParams();
  const { data: server, isPending } = useServer(id);
  const title = server ? shownName(server) : null;
  const editable = server ? isPendingInstall(server) && !server.is_shared : false;

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader title="Connect a server" />
      {isPending || !server || !title ? (
        <Skeleton variant="rounded" height={180} />
      ) : (
        <Card variant="outlined" component="article" aria-label={title.name}>
          <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
              <ServerTitle title={title} />
              <ServerStatusChip server={server} />
            </Stack>
            {editable ? (
              <>
                <Alert severity="info" sx={{ mb: 3 }}>
                  The agent is not installed yet. Name the server as you like, then run the install
                  command on it to connect it.
                </Alert>
                <PendingServerForm server={server} />
              </>
            ) : (
              <ConnectedView server={server} />
            )}
          </CardContent>
        </Card>
      )}
    </Box>
  );
}

/** A connected or installed server, or a pending one shared through a team: as it stands. */
function ConnectedView({ server }: { server: Server }) {
  return (
    <>
      <ServerFacts server={server} />
      {server.connected ? (
        <Alert severity="success" sx={{ mt: 3 }}>
          This server is connected.
        </Alert>
      ) : isPendingInstall(server) ? (
        <Alert severity="info" sx={{ mt: 3 }}>
          The agent is not installed yet. Run the install command on the server to connect it.
        </Alert>
      ) : (
        <Alert severity="warning" sx={{ mt: 3 }}>
          The agent is installed but not connected right now. Check that the server is up and can
          reach this panel.
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
        {isPendingInstall(server) ? (
          <Button
            component={Link}
            to={`/server-install/${server.id}`}
            variant="contained"
            endIcon={<ArrowForward />}
          >
            Continue to the install
          </Button>
        ) : (
          <Button
            component={Link}
            to={`/server-summary/${server.id}`}
            variant="contained"
            endIcon={<ArrowForward />}
          >
            Open the server
          </Button>
        )}
      </Stack>
    </>
  );
}
