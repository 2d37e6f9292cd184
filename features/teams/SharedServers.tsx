import { useState } from 'react';
import { Box, Button, List, MenuItem, TextField, Typography } from '@mui/material';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import LinkOff from '@mui/icons-material/LinkOff';
import Share from '@mui/icons-material/Share';
import { useGetList, useNotify } from 'ra-core';
import { Link } from 'react-router-dom';
import { type Server, isPendingInstall } from '../../resources/servers';
import type { Team } from '../../resources/teams';
import { errorMessage } from '../../src/generic/serverErrors';
import { shownName } from '../../src/pages/servers/serverName';
import { TeamListItem } from './TeamListItem';
import { usePatchTeam } from './useTeams';

export type SharedServer = Team['servers'][number];

/** The servers shared with the team; the owner may unshare them and share more of theirs. */
export function SharedServers({
  team,
  onUnshare,
}: {
  team: Team;
  onUnshare: (server: SharedServer) => void;
}) {
  return (
    <>
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
            <TeamListItem
              key={server.id}
              action={
                team.is_owner
                  ? {
                      tooltip: 'Stop sharing',
                      label: `Unshare ${shownName(server).name}`,
                      icon: <LinkOff fontSize="small" />,
                      onClick: () => onUnshare(server),
                    }
                  : null
              }
              avatar={{ bgcolor: 'primary.main', content: <DnsOutlined fontSize="small" /> }}
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
          ))}
        </List>
      )}
      {team.is_owner ? <ShareForm team={team} /> : null}
    </>
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
