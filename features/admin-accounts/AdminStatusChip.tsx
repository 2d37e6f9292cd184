import { Chip } from '@mui/material';
import { ADMIN_SERVER_STATUS_LABELS, type AdminServerStatus } from './schemas';

const LOOK: Record<
  AdminServerStatus,
  { color: 'success' | 'default' | 'warning'; variant: 'filled' | 'outlined' }
> = {
  connected: { color: 'success', variant: 'filled' },
  disconnected: { color: 'default', variant: 'outlined' },
  pending: { color: 'warning', variant: 'outlined' },
};

/** A server's state in the admin lists, in the words of the user's own server cards. */
export function AdminStatusChip({ status }: { status: AdminServerStatus }) {
  const look = LOOK[status];
  return (
    <Chip
      size="small"
      color={look.color}
      variant={look.variant}
      label={ADMIN_SERVER_STATUS_LABELS[status]}
    />
  );
}
