import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Skeleton, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useDelete, useGetOne, useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { useNavigate, useParams } from 'react-router-dom';
import type { Team } from '../../resources/teams';
import { LoadError, NotFoundState } from '../../src/generic/LoadState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { TeamNameForm, type TeamName } from './TeamNameForm';
import { usePatchTeam, useTeamsRefresh } from './useTeams';

/** /edit-team/{id}: the owner renames or deletes the team. */
export default function EditTeamPage() {
  const { id } = useParams();
  const teamId = Number(id);
  const {
    data: team,
    isPending,
    error,
  } = useGetOne<Team>(
    'teams',
    { id: teamId },
    { enabled: Number.isInteger(teamId) && teamId > 0, retry: false },
  );
  const patch = usePatchTeam();
  const refresh = useTeamsRefresh();
  const [remove, { isPending: deleting }] = useDelete<Team>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);

  const back = { to: '/team', label: 'Back to teams' };
  if (!Number.isInteger(teamId) || teamId <= 0) return <NotFoundState what="team" back={back} />;
  if (error) return <LoadError error={error} what="team" back={back} />;
  if (isPending || !team) return <Skeleton variant="rounded" height={200} sx={{ maxWidth: 560 }} />;
  if (!team.is_owner) {
    return (
      <Alert severity="info">
        Only the owner of {team.name} can change it. You can leave it on the Team page.
      </Alert>
    );
  }

  const rename = async (values: TeamName) => {
    await patch(team.id, { name: values.name });
    notify('Team renamed.', { type: 'success' });
    navigate('/team-manager');
  };
  const destroy = async () => {
    try {
      await remove('teams', { id: team.id, previousData: team }, { returnPromise: true });
      await refresh();
      notify(`Team ${team.name} deleted.`, { type: 'success' });
      navigate('/team');
    } catch (failure) {
      notify(errorMessage(failure, 'The team could not be deleted.'), { type: 'error' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      <PageHeader title={`Edit ${team.name}`} />
      <Card variant="outlined" sx={{ maxWidth: 560, mb: 3 }}>
        <CardContent>
          <TeamNameForm initial={team.name} label="Save" onSave={rename} />
        </CardContent>
      </Card>
      <Card variant="outlined" sx={{ maxWidth: 560, borderColor: 'error.light' }}>
        <CardContent>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            Delete the team
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
            Its {team.users.length - 1} member(s) lose access to the {team.servers.length} shared
            server(s) at once. The servers stay yours.
          </Typography>
          <Box>
            <Button
              color="error"
              variant="outlined"
              startIcon={<DeleteOutline />}
              onClick={() => setConfirming(true)}
            >
              Delete team
            </Button>
          </Box>
        </CardContent>
      </Card>
      <Confirm
        isOpen={confirming}
        loading={deleting}
        title={`Delete ${team.name}?`}
        content="Members lose the shared servers at once. This cannot be undone."
        confirm="Delete team"
        confirmColor="warning"
        onConfirm={() => void destroy()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
