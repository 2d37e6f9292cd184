import { useState } from 'react';
import { Alert, AlertTitle, Button, Stack } from '@mui/material';
import { useNotify } from 'ra-core';
import { useSearchParams } from 'react-router-dom';
import type { Team } from '../../resources/teams';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useNotifyPlanLimit } from '../../src/generic/PlanLimitAlert';
import { useStackdeckAuth, useStackdeckData } from '../../src/hooks';
import { ActingNotice } from '../../src/pages/account/ActingNotice';
import { type MyInvite, useMyInvites, useTeamsRefresh } from './useTeams';

/**
 * Invitations to the user's address, on /team and /team-manager: accept joins the team,
 * decline drops the invitation. The mail's link (`?invite={id}`) puts its invitation first;
 * a link that is no longer valid says so.
 */
export function InvitesPanel() {
  const { data, isPending } = useMyInvites();
  const [search, setSearch] = useSearchParams();
  const linked = search.get('invite');
  const invites = [...(data ?? [])].sort((a, b) =>
    a.id === linked ? -1 : b.id === linked ? 1 : 0,
  );
  const dropLink = () => {
    const next = new URLSearchParams(search);
    next.delete('invite');
    setSearch(next, { replace: true });
  };
  const acting = useStackdeckAuth().isActing();
  if (isPending) return null;
  const stale = linked && !invites.some((i) => i.id === linked);
  return (
    <Stack spacing={2} sx={{ mb: 3 }}>
      {stale ? (
        <Alert severity="warning" onClose={dropLink}>
          <AlertTitle>This invitation is no longer valid</AlertTitle>
          It was accepted, withdrawn, replaced by a newer one or has expired, or it was sent to
          another address than the one you signed in with. Ask the team owner for a new one.
        </Alert>
      ) : null}
      {acting && invites.length ? <ActingNotice only="answer team invitations" /> : null}
      {invites.map((invite) => (
        <Invite
          key={invite.id}
          invite={invite}
          locked={acting}
          onDone={linked ? dropLink : undefined}
        />
      ))}
    </Stack>
  );
}

function Invite({
  invite,
  locked,
  onDone,
}: {
  invite: MyInvite;
  /** An admin acting as the invitee sees the invitation but cannot answer it. */
  locked: boolean;
  onDone?: () => void;
}) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const planLimit = useNotifyPlanLimit();
  const refresh = useTeamsRefresh();
  const [busy, setBusy] = useState(false);
  const act = async (action: 'accept' | 'decline') => {
    setBusy(true);
    try {
      const result = await dataProvider.action<Team | { declined: true }>('team-invites', action, {
        params: { uuid: invite.id },
      });
      // The link has served: drop it first, so no entry-rule redirect carries it along.
      onDone?.();
      // On /team the entry rule then opens /team-manager, now that the user has a team.
      await refresh();
      if (action === 'accept') notify(`You joined ${(result as Team).name}.`, { type: 'success' });
      else notify('Invitation declined.', { type: 'info' });
    } catch (error) {
      // The team's owner's plan holds no more members: its words, with the Upgrade link.
      if (!planLimit(error))
        notify(errorMessage(error, 'The invitation could not be answered.'), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert
      severity="info"
      role="region"
      aria-label={`Invitation to ${invite.team_name}`}
      action={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button
            variant="contained"
            size="small"
            disabled={busy || locked}
            onClick={() => void act('accept')}
          >
            Accept
          </Button>
          <Button
            size="small"
            color="inherit"
            disabled={busy || locked}
            onClick={() => void act('decline')}
          >
            Decline
          </Button>
        </Stack>
      }
    >
      <AlertTitle>
        {invite.invited_by} invites you to the team {invite.team_name}
      </AlertTitle>
      Members see and manage the servers shared with the team. Valid until{' '}
      {formatDate(invite.expires_at)}.
    </Alert>
  );
}
