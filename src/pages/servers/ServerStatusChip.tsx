import { Chip } from '@mui/material';
import { type Server, isPendingInstall } from '../../../resources/servers';

/**
 * Connected, disconnected, or (a cs- server the agent has not reached yet) pending install.
 * `connected` overrides the record's flag with what the live feed says.
 */
export function ServerStatusChip({
  server,
  connected = server.connected,
}: {
  server: Pick<Server, 'name' | 'connected'>;
  connected?: boolean;
}) {
  if (isPendingInstall({ name: server.name, connected })) {
    return <Chip size="small" color="warning" variant="outlined" label="Pending install" />;
  }
  return connected ? (
    <Chip size="small" color="success" label="Connected" />
  ) : (
    <Chip size="small" color="default" variant="outlined" label="Disconnected" />
  );
}
