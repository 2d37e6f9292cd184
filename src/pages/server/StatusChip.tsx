import { Chip } from '@mui/material';

const COLORS = {
  pending: 'info',
  active: 'success',
  done: 'success',
  failed: 'error',
  removing: 'warning',
  deleting: 'warning',
} as const;

const LABELS: Record<string, string> = {
  pending: 'Pending',
  active: 'Active',
  done: 'Done',
  failed: 'Failed',
  removing: 'Being removed',
  deleting: 'Being deleted',
};

/** pending / active (done) / failed, as the panel's desired-state rows carry them. */
export function StatusChip({ status }: { status: keyof typeof COLORS }) {
  return (
    <Chip
      size="small"
      color={COLORS[status]}
      variant={status === 'pending' ? 'outlined' : 'filled'}
      label={LABELS[status] ?? status}
    />
  );
}
