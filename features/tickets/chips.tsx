import { Chip } from '@mui/material';
import type { Ticket } from '../../resources/tickets';

const STATUS: Record<
  Ticket['status'],
  { label: string; color: 'warning' | 'success' | 'default' }
> = {
  open: { label: 'Open', color: 'warning' },
  answered: { label: 'Answered', color: 'success' },
  closed: { label: 'Closed', color: 'default' },
};
const PRIORITY: Record<Ticket['priority'], 'default' | 'info' | 'warning' | 'error'> = {
  low: 'default',
  normal: 'info',
  high: 'warning',
  urgent: 'error',
};

export const STATUS_LABELS = Object.fromEntries(
  Object.entries(STATUS).map(([k, v]) => [k, v.label]),
) as Record<Ticket['status'], string>;

export function StatusChip({ status }: { status: Ticket['status'] }) {
  const s = STATUS[status];
  return <Chip size="small" color={s.color} label={s.label} data-testid="ticket-status" />;
}

export function PriorityChip({ priority }: { priority: Ticket['priority'] }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={PRIORITY[priority]}
      label={priority[0]!.toUpperCase() + priority.slice(1)}
    />
  );
}
