import { Chip, Stack, Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { driftText, statusView } from './formModel';

/**
 * Where a server-managed record stands: a chip (pending, active, failed, deleting); a failed
 * one says the server's reason under it, and after a check against the server a row that
 * differs says how (missing, changed).
 */
export function StatusCell({ record }: { record: RaRecord }) {
  const view = statusView(record);
  if (!view) return null;
  const drift = driftText(record.drift);
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }} data-testid={`status-${record.id}`}>
      <Chip
        size="small"
        color={view.color}
        variant={view.status === 'active' ? 'outlined' : 'filled'}
        label={view.label}
        title={view.detail ?? undefined}
      />
      {view.status === 'failed' && view.detail ? (
        <Typography variant="caption" color="error" sx={{ maxWidth: 320 }}>
          {view.detail}
        </Typography>
      ) : null}
      {drift ? (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label={drift}
          data-testid={`drift-${record.id}`}
        />
      ) : null}
    </Stack>
  );
}
