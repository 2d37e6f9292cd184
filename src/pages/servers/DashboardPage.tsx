import { Alert, Box, Button, Grid, Skeleton } from '@mui/material';
import Add from '@mui/icons-material/Add';
import { Link, Navigate } from 'react-router-dom';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { ServerCard } from './ServerCard';
import { useServers } from './useServers';

/** /dashboard: the user's servers; with none, the entry rule sends them to /no-servers. */
export default function DashboardPage() {
  const { data, total, isPending, error } = useServers();
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
                <ServerCard server={server} />
              </Grid>
            ))}
      </Grid>
    </Box>
  );
}
