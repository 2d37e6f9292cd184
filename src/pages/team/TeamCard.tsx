import { useState } from 'react';
import {
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Divider,
  Grid,
  IconButton,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LinkOff from '@mui/icons-material/LinkOff';
import Logout from '@mui/icons-material/Logout';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import ScheduleSend from '@mui/icons-material/ScheduleSend';
import Share from '@mui/icons-material/Share';
import Close from '@mui/icons-material/Close';
import { useQuery } from '@tanstack/react-query';
import { Form, useGetList, useNotify } from 'ra-core';
import { Confirm, SaveButton, TextInput } from 'ra-ui-materialui';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { type Server, isPendingInstall } from '../../../resources/servers';
import type { Team } from '../../../resources/teams';
import { email } from '../../../resources/users';
import { formatDate } from '../../generic/format';
import { keepText } from '../../generic/SchemaInput';
import { schemaResolver } from '../../generic/schemaResolver';
import { errorMessage } from '../../generic/serverErrors';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';
import { shownName } from '../servers/serverName';
import { usePatchTeam, useTeamsRefresh } from './useTeams';

type Member = Team['users'][number];
type Shared = Team['servers'][number];

/** What the confirmation dialog is about to do. */
type Pending =
  | { kind: 'remove'; member: Member }
  | { kind: 'unshare'; server: Shared }
  | { kind: 'leave' }
  | null;

const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();

/** Photos of the team's users, by user id (`GET team-user-images/{teamId}/users/{uid}`). */
function useTeamPhotos(teamId: number) {
  const dataProvider = useStackdeckData();
  return useQuery({
    queryKey: ['teams', 'photos', teamId],
    queryFn: async ({ signal }) => {
      const page = await dataProvider.action<{ data: { user_id: number; data: string }[] }>(
        'teams',
        'teamPhotos',
        { params: { teamId }, query: { perPage: 100 }, signal },
      );
      return new Map(page.data.map((p) => [p.user_id, p.data]));
    },
  });
}

/** One team: members with photos, invitations, shared servers, and what the user may do. */
export function TeamCard({ team }: { team: Team }) {
  const patch = usePatchTeam();
  const refresh = useTeamsRefresh();
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const { data: photos } = useTeamPhotos(team.id);
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
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Members ({team.users.length})
            </Typography>
            <List dense aria-label={`Members of ${team.name}`}>
              {team.users.map((user) => (
                <ListItem
                  key={user.id}
                  disableGutters
                  secondaryAction={
                    team.is_owner && !user.is_owner ? (
                      <Tooltip title="Remove from the team">
                        <IconButton
                          edge="end"
                          aria-label={`Remove ${user.user_name}`}
                          onClick={() => setPending({ kind: 'remove', member: user })}
                        >
                          <PersonRemoveOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null
                  }
                >
                  <ListItemAvatar>
                    <Avatar
                      src={photos?.get(user.id)}
                      alt={user.user_name}
                      sx={{ width: 36, height: 36 }}
                    >
                      {initials(user.user_name)}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={
                      <>
                        {user.user_name}{' '}
                        {user.is_owner ? (
                          <Chip label="Owner" size="small" sx={{ ml: 0.5 }} />
                        ) : null}
                      </>
                    }
                    secondary={user.email}
                  />
                </ListItem>
              ))}
            </List>
            {team.is_owner ? (
              <>
                <PendingInvites team={team} />
                <InviteForm team={team} />
              </>
            ) : null}
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Shared servers ({team.servers.length})
            </Typography>
            {team.servers.length === 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                {team.is_owner
                  ? 'No server is shared yet. Share one below and every member sees it on their dashboard.'
                  : 'The owner has not shared a server with this team yet.'}
              </Typography>
            ) : (
              <List dense aria-label={`Servers shared with ${team.name}`}>
                {team.servers.map((server) => (
                  <ListItem
                    key={server.id}
                    disableGutters
                    secondaryAction={
                      team.is_owner ? (
                        <Tooltip title="Stop sharing">
                          <IconButton
                            edge="end"
                            aria-label={`Unshare ${shownName(server).name}`}
                            onClick={() => setPending({ kind: 'unshare', server })}
                          >
                            <LinkOff fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      ) : null
                    }
                  >
                    <ListItemAvatar>
                      <Avatar sx={{ width: 36, height: 36, bgcolor: 'primary.main' }}>
                        <DnsOutlined fontSize="small" />
                      </Avatar>
                    </ListItemAvatar>
                    <ListItemText
                      primary={
                        <Link to={`/server-summary/${server.id}`} style={{ color: 'inherit' }}>
                          {shownName(server).name}
                        </Link>
                      }
                      secondary={
                        server.connected
                          ? 'Connected'
                          : isPendingInstall(server)
                            ? 'Install pending'
                            : 'Offline'
                      }
                    />
                  </ListItem>
                ))}
              </List>
            )}
            {team.is_owner ? <ShareForm team={team} /> : null}
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
          <ListItem
            key={invite.id}
            disableGutters
            secondaryAction={
              <Tooltip title="Withdraw the invitation">
                <IconButton
                  edge="end"
                  aria-label={`Withdraw the invitation to ${invite.email}`}
                  onClick={() => void withdraw(invite.id, invite.email)}
                >
                  <Close fontSize="small" />
                </IconButton>
              </Tooltip>
            }
          >
            <ListItemAvatar>
              <Avatar sx={{ width: 36, height: 36 }}>
                <ScheduleSend fontSize="small" />
              </Avatar>
            </ListItemAvatar>
            <ListItemText
              primary={invite.email}
              secondary={
                invite.expired
                  ? 'Expired: invite again for a new link'
                  : `Waiting · valid until ${formatDate(invite.expires_at)}`
              }
            />
          </ListItem>
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

/** The owner's own servers that the team does not share yet. */
function ShareForm({ team }: { team: Team }) {
  const patch = usePatchTeam();
  const notify = useNotify();
  const { data, isPending } = useGetList<Server>('servers', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [choice, setChoice] = useState<number | ''>('');
  const shared = new Set(team.servers.map((s) => s.id));
  const candidates = (data ?? []).filter((s) => !s.is_shared && !shared.has(s.id));
  if (isPending) return null;
  if (candidates.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {shared.size
          ? 'All your servers are shared with this team.'
          : 'You have no server to share yet.'}
      </Typography>
    );
  }
  const share = async () => {
    if (choice === '') return;
    const server = candidates.find((s) => s.id === choice);
    try {
      await patch(team.id, { share: [choice] });
      notify(`${server ? shownName(server).name : 'The server'} is shared with ${team.name}.`, {
        type: 'success',
      });
      setChoice('');
    } catch (error) {
      notify(errorMessage(error, 'The server could not be shared.'), { type: 'error' });
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label="Share a server"
        value={choice}
        onChange={(event) => setChoice(event.target.value === '' ? '' : Number(event.target.value))}
        sx={{ flex: 1 }}
      >
        {candidates.map((server) => (
          <MenuItem key={server.id} value={server.id}>
            {shownName(server).name}
          </MenuItem>
        ))}
      </TextField>
      <Button
        variant="outlined"
        startIcon={<Share />}
        disabled={choice === ''}
        onClick={() => void share()}
      >
        Share
      </Button>
    </Box>
  );
}
