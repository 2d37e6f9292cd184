import { Alert } from '@mui/material';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';

/** An offline server still takes changes: they wait as pending and apply when it reconnects. */
export function OfflineSaves() {
  const { online, server } = useServerPage();
  if (online) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="offline-saves">
      {shownName(server).name} is offline: its agent is not connected. Jobs you add, change or
      delete are kept as pending and applied as soon as it reconnects.
    </Alert>
  );
}
