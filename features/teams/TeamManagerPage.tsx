import { useEffect, useState } from 'react';
import { Alert, Box, Button, Skeleton, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { CardPager } from '../../src/generic/CardPager';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { InvitesPanel } from './InvitesPanel';
import { TeamCard } from './TeamCard';
import { TEAMS_PER_PAGE, useTeams } from './useTeams';

/**
 * /team-manager: the user's teams (owned and joined) with members, pending invitations and
 * shared servers. With no team, the entry rule opens /team.
 */
export default function TeamManagerPage() {
  const [page, setPage] = useState(1);
  const { data, total, isPending, error } = useTeams(page);
  const { search } = useLocation();
  const pages = Math.max(1, Math.ceil((total ?? 0) / TEAMS_PER_PAGE));
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  if (!isPending && !error && total === 0) return <Navigate to={`/team${search}`} replace />;

  return (
    <Box>
      <PageHeader
        title="Teams"
        description="The teams you own and the teams you are a member of. Members see the servers shared with a team on their dashboard."
        actions={
          <Button component={Link} to="/create-team" variant="contained" startIcon={<Add />}>
            Create team
          </Button>
        }
      />
      <InvitesPanel />
      {error ? (
        <Alert severity="error">{errorMessage(error, 'The teams could not be loaded.')}</Alert>
      ) : null}
      <Stack spacing={3}>
        {isPending
          ? [0, 1].map((n) => <Skeleton key={n} variant="rounded" height={220} />)
          : data?.map((team) => <TeamCard key={team.id} team={team} />)}
      </Stack>
      <CardPager pages={pages} page={page} setPage={setPage} label="Team pages" />
    </Box>
  );
}
