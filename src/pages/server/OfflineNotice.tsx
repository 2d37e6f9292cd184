import { Alert } from '@mui/material';
import { useServerPage } from './ServerContext';

/** Says why controls are disabled: the server's agent is not connected. */
export function OfflineNotice({ what = 'Changes' }: { what?: string }) {
  const { online, server } = useServerPage();
  if (online) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="offline-notice">
      {server.name} is offline: its agent is not connected. {what} need the server online; they are
      available again as soon as it reconnects.
    </Alert>
  );
}
