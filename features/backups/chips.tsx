import { Chip, Tooltip } from '@mui/material';
import type { BackupPolicy, RunStatus } from './schemas';
import { formatBytes } from '../../src/pages/servers/format';
import { HEALTH_WORDS, STATUS_WORDS } from './words';

/** Bytes or a dash. */
export const sizeText = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? '—' : formatBytes(bytes);

/** A policy's health in one word, with what it means on hover. */
export function HealthChip({ health }: { health: BackupPolicy['health'] }) {
  const words = HEALTH_WORDS[health];
  return (
    <Tooltip title={words.hint}>
      <Chip size="small" label={words.label} color={words.tone} data-testid="health" />
    </Tooltip>
  );
}

/** A file's (run's) state. */
export function StatusChip({ status }: { status: RunStatus }) {
  const words = STATUS_WORDS[status];
  return (
    <Chip
      size="small"
      label={words.label}
      color={words.tone}
      variant={status === 'queued' ? 'outlined' : 'filled'}
      data-testid="run-status"
    />
  );
}
