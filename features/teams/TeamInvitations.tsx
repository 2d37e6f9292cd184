import { useState } from 'react';
import { Box, List, Typography } from '@mui/material';
import Close from '@mui/icons-material/Close';
import ScheduleSend from '@mui/icons-material/ScheduleSend';
import { Form, useNotify } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import { z } from 'zod';
import type { Team } from '../../resources/teams';
import { email } from '../../resources/user-security';
import { formatDate } from '../../src/generic/format';
import { keepText } from '../../src/generic/SchemaInput';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { errorMessage } from '../../src/generic/serverErrors';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { TeamListItem } from './TeamListItem';
import { usePatchTeam } from './useTeams';

/**
 * The owner's side of invitations: the team's pending ones (each can be withdrawn) and the
 * form that sends a new one. The invitee answers theirs in `InvitesPanel`.
 */
export function TeamInvitations({ team }: { team: Team }) {
  return (
    <>
      <PendingInvites team={team} />
      <InviteForm team={team} />
    </>
  );
}

function PendingInvites({ team }: { team: Team }) {
  const patch = usePatchTeam();
  const notify = useNotify();
  if (team.invites.length === 0) return null;
  const withdraw = async (id: string, address: string) => {
    try {
      await patch(team.id, { cancel_invites: [id] });
      notify(`Invitation to ${address} withdrawn.`, { type: 'info' });
    } catch (error) {
      notify(errorMessage(error, 'The invitation could not be withdrawn.'), { type: 'error' });
    }
  };
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        Pending invitations ({team.invites.length})
      </Typography>
      <List dense aria-label={`Pending invitations of ${team.name}`}>
        {team.invites.map((invite) => (
          <TeamListItem
            key={invite.id}
            action={{
              tooltip: 'Withdraw the invitation',
              label: `Withdraw the invitation to ${invite.email}`,
              icon: <Close fontSize="small" />,
              onClick: () => void withdraw(invite.id, invite.email),
            }}
            avatar={{ content: <ScheduleSend fontSize="small" /> }}
            primary={invite.email}
            secondary={
              invite.expired
                ? 'Expired: invite again for a new link'
                : `Waiting · valid until ${formatDate(invite.expires_at)}`
            }
          />
        ))}
      </List>
    </>
  );
}

/** One address at a time, checked with the declared email schema of `invite`. */
const inviteForm = z.object({ email });
type InviteValues = z.infer<typeof inviteForm>;
const inviteResolver = schemaResolver(inviteForm);
const INVITE_FIELDS = ['email'] as const;

function InviteForm({ team }: { team: Team }) {
  const patch = usePatchTeam();
  const notify = useNotify();
  const [formKey, setFormKey] = useState(0);
  const onSubmit = useSubmitHandler<InviteValues>(
    INVITE_FIELDS,
    async ({ email: address }) => {
      // A refused address (a member already, the owner's own) comes back as the notice.
      await patch(team.id, { invite: [address] });
      notify(`Invitation sent to ${address}.`, { type: 'success' });
      setFormKey((k) => k + 1);
    },
    null,
  );
  return (
    <Form
      key={formKey}
      defaultValues={{ email: '' }}
      resolver={inviteResolver}
      onSubmit={onSubmit}
      noValidate
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}>
        <TextInput
          source="email"
          type="email"
          label="Invite by email"
          parse={keepText}
          helperText={false}
          sx={{ flex: 1, m: 0 }}
        />
        <SaveButton label="Invite" icon={<ScheduleSend />} alwaysEnable sx={{ mt: 1 }} />
      </Box>
    </Form>
  );
}
