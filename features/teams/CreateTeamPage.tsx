import { Card, CardContent } from '@mui/material';
import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import type { Team } from '../../resources/teams';
import { PageHeader } from '../../src/generic/PageHeader';
import { useStackdeckData } from '../../src/hooks';
import { TeamNameForm, type TeamName } from './TeamNameForm';
import { useTeamsRefresh } from './useTeams';

/** /create-team: a name is all a team needs; members and servers follow on /team-manager. */
export default function CreateTeamPage() {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const navigate = useNavigate();
  const refresh = useTeamsRefresh();
  const save = async (values: TeamName) => {
    const { data: team } = await dataProvider.create<Team>('teams', { data: values });
    await refresh();
    notify(`Team ${team.name} created. Invite its members now.`, { type: 'success' });
    navigate('/team-manager');
  };
  return (
    <>
      <PageHeader
        title="Create a team"
        description="You own the team: you invite its members and choose which of your servers it shares."
      />
      <Card variant="outlined" sx={{ maxWidth: 560 }}>
        <CardContent>
          <TeamNameForm initial="" label="Create team" onSave={save} />
        </CardContent>
      </Card>
    </>
  );
}
