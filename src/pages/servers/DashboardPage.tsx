import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Grid, Skeleton } from '@mui/material';
import Add from '@mui/icons-material/Add';
import { Link, Navigate, useParams } from 'react-router-dom';
import { CardPager } from '../../generic/CardPager';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { ServerCard } from './ServerCard';
import { TransferAcceptance } from './TransferAcceptance';
import { SERVERS_PER_PAGE, useServers } from './useServers';

/** The list is read again this often, for servers connected or removed elsewhere. */
const REFRESH_MS = 15_000;

/**
 * /dashboard: the user's servers; with none, the entry rule sends them to /no-servers.
 * /dashboard/{uuid}: the transfer offered under that uuid, when it is open and the caller's;
 * otherwise a not-found or expired state with the way back to /dashboard.
 */
export default function DashboardPage() {
  const { uuid } = useParams();
  const [page, setPage] = useState(1);
  const { data, total, isPending, error, refetch } = useServers(page, REFRESH_MS);
  const pages = Math.max(1, Math.ceil((total ?? 0) / SERVERS_PER_PAGE));
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  const onStale = useCallback(() => void refetch(), [refetch]);

  if (uuid)
    return (
      <Box sx={{ maxWidth: 720 }}>
        <PageHeader
          title="Server transfer"
          description="A server another Stackdeck user offers to move to your account."
        />
        <TransferAcceptance uuid={uuid} />
      </Box>
    );
  if (!isPending && !error && total === 0) return <Navigate to="/no-servers" replace />;

  return (
    <Box>
      <PageHeader
        title="Servers"
        description="Your servers and the servers your teams share with you."
        actions={
          <Button component={Link} to="/connect-server" variant="contained" startIcon={<Add />}>
            Connect server
          </Button>
        }
      />
      {error ? (
        <Alert severity="error">{errorMessage(error, 'The servers could not be loaded.')}</Alert>
      ) : null}
      <Grid container spacing={2}>
        {isPending
          ? [0, 1, 2].map((n) => (
              <Grid key={n} size={{ xs: 12, sm: 6, lg: 4 }}>
                <Skeleton variant="rounded" height={148} />
              </Grid>
            ))
          : data?.map((server) => (
              <Grid key={server.id} size={{ xs: 12, sm: 6, lg: 4 }}>
                <ServerCard server={server} onStale={onStale} />
              </Grid>
            ))}
      </Grid>
      <CardPager pages={pages} page={page} setPage={setPage} label="Server pages" />
    </Box>
  );
}
