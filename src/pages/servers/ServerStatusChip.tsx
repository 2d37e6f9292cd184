import { Chip } from '@mui/material';
import { type Server, isPendingInstall } from '../../../resources/servers';

/** Connected, disconnected, or (a cs- server the agent has not reached yet) pending install. */
export function ServerStatusChip({ server }: { server: Pick<Server, 'name' | 'connected'> }) {
  if (isPendingInstall(server)) {
    return <Chip size="small" color="warning" variant="outlined" label="Pending install" />;
  }
  return server.connected ? (
    <Chip size="small" color="success" label="Connected" />
  ) : (
    <Chip size="small" color="default" variant="outlined" label="Disconnected" />
  );
}
