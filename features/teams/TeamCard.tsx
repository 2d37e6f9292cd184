import { useState } from 'react';
import { Button, Card, CardContent, CardHeader, Divider, Grid } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Logout from '@mui/icons-material/Logout';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { Link } from 'react-router-dom';
import type { Team } from '../../resources/teams';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { shownName } from '../../src/pages/servers/serverName';
import { type SharedServer, SharedServers } from './SharedServers';
import { TeamInvitations } from './TeamInvitations';
import { type TeamMember, TeamMembers } from './TeamMembers';
import { usePatchTeam, useTeamsRefresh } from './useTeams';

/** What the confirmation dialog is about to do. */
type Pending =
  | { kind: 'remove'; member: TeamMember }
  | { kind: 'unshare'; server: SharedServer }
  | { kind: 'leave' }
  | null;

/** One team: members with photos, invitations, shared servers, and what the user may do. */
export function TeamCard({ team }: { team: Team }) {
  const patch = usePatchTeam();
  const refresh = useTeamsRefresh();
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>, done: string, failed: string) => {
    setBusy(true);
    try {
      await work();
      notify(done, { type: 'success' });
    } catch (error) {
      notify(errorMessage(error, failed), { type: 'error' });
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const confirmed = () => {
    if (!pending) return;
    if (pending.kind === 'remove')
      void run(
        () => patch(team.id, { remove: [pending.member.id] }),
        `${pending.member.user_name} was removed from ${team.name}.`,
        'The member could not be removed.',
      );
    else if (pending.kind === 'unshare')
      void run(
        () => patch(team.id, { unshare: [pending.server.id] }),
        `${shownName(pending.server).name} is no longer shared with ${team.name}.`,
        'The server could not be unshared.',
      );
    else
      void run(
        async () => {
          await dataProvider.action('teams', 'leave', { params: { teamId: team.id } });
          await refresh();
        },
        `You left ${team.name}.`,
        'You could not leave the team.',
      );
  };

  const owner = team.users.find((u) => u.is_owner);
  return (
    <Card variant="outlined" component="section" aria-label={`Team ${team.name}`}>
      <CardHeader
        title={team.name}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        subheader={
          team.is_owner
            ? `You own this team · created ${formatDate(team.created_at)}`
            : `Owned by ${owner?.user_name ?? 'someone'} · you are a member`
        }
        action={
          team.is_owner ? (
            <Button
              component={Link}
              to={`/edit-team/${team.id}`}
              startIcon={<EditOutlined />}
              aria-label={`Edit ${team.name}`}
            >
              Edit
            </Button>
          ) : (
            <Button
              color="error"
              startIcon={<Logout />}
              onClick={() => setPending({ kind: 'leave' })}
            >
              Leave team
            </Button>
          )
        }
      />
      <Divider />
      <CardContent>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 6 }}>
            <TeamMembers
              team={team}
              onRemove={(member) => setPending({ kind: 'remove', member })}
            />
            {team.is_owner ? <TeamInvitations team={team} /> : null}
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SharedServers
              team={team}
              onUnshare={(server) => setPending({ kind: 'unshare', server })}
            />
          </Grid>
        </Grid>
      </CardContent>
      <Confirm
        isOpen={pending !== null}
        loading={busy}
        title={
          pending?.kind === 'remove'
            ? `Remove ${pending.member.user_name}?`
            : pending?.kind === 'unshare'
              ? `Stop sharing ${shownName(pending.server).name}?`
              : `Leave ${team.name}?`
        }
        content={
          pending?.kind === 'remove'
            ? `${pending.member.user_name} loses access to the servers shared with ${team.name} at once.`
            : pending?.kind === 'unshare'
              ? `Members of ${team.name} lose access to ${shownName(pending.server).name} at once. The server stays yours.`
              : `You lose access to the servers shared with ${team.name} at once. Only the owner can invite you again.`
        }
        confirm={
          pending?.kind === 'remove' ? 'Remove' : pending?.kind === 'unshare' ? 'Unshare' : 'Leave'
        }
        confirmColor="warning"
        onConfirm={confirmed}
        onClose={() => setPending(null)}
      />
    </Card>
  );
}
