import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { Link, useParams } from 'react-router-dom';
import { isPendingInstall } from '../../../resources/servers';
import { PageHeader } from '../../generic/PageHeader';
import { ServerFacts } from './ServerFacts';
import { ServerStatusChip } from './ServerStatusChip';
import { useServer } from './useServer';

/**
 * /connect-server/{id}: back to a server created earlier. A pending one continues to its
 * install; a connected one is there already.
 */
export default function ConnectExistingServerPage() {
  const { id } = useParams();
  const { data: server, isPending } = useServer(id);

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader title="Connect a server" />
      {isPending || !server ? (
        <Skeleton variant="rounded" height={180} />
      ) : (
        <Card variant="outlined" component="article" aria-label={server.name}>
          <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
              <Typography variant="h6" component="h2" noWrap sx={{ flex: 1 }}>
                {server.name}
              </Typography>
              <ServerStatusChip server={server} />
            </Stack>
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
                The agent is installed but not connected right now. Check that the server is up and
                can reach this panel.
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
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
