import { Alert, AlertTitle } from '@mui/material';
import { formatBytes } from '../servers/format';

export interface Freed {
  packages: number;
  logs: number;
  journal: number;
}

/** What a cleanup freed, by kind. */
export function CleanupResult({ freed, onClose }: { freed: Freed; onClose: () => void }) {
  const total = freed.packages + freed.logs + freed.journal;
  return (
    <Alert severity="success" onClose={onClose} sx={{ mb: 2 }} data-testid="cleanup-result">
      <AlertTitle>{formatBytes(total)} freed</AlertTitle>
      Package caches {formatBytes(freed.packages)}, old logs {formatBytes(freed.logs)}, journal{' '}
      {formatBytes(freed.journal)}.
    </Alert>
  );
}
