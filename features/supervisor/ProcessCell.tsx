import { Chip, Stack, Tooltip, Typography } from '@mui/material';
import { type SvProcess, uptimeText } from './useProcesses';

const COLORS: Record<string, 'success' | 'error' | 'warning' | 'default' | 'info'> = {
  RUNNING: 'success',
  STARTING: 'info',
  BACKOFF: 'warning',
  STOPPING: 'info',
  STOPPED: 'default',
  EXITED: 'warning',
  FATAL: 'error',
  UNKNOWN: 'error',
};

/** A job's processes as supervisord sees them: state, and uptime while it runs. */
export function ProcessCell({ processes }: { processes: SvProcess[] | undefined }) {
  if (!processes)
    return (
      <Typography variant="body2" color="text.disabled">
        —
      </Typography>
    );
  if (!processes.length)
    return (
      <Typography variant="body2" color="text.secondary">
        Not loaded
      </Typography>
    );
  return (
    <Stack spacing={0.5}>
      {processes.map((p) => (
        <Stack key={p.process} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Tooltip title={p.description || p.process}>
            <Chip
              size="small"
              color={COLORS[p.state] ?? 'default'}
              label={p.state}
              aria-label={`${p.process} ${p.state}`}
            />
          </Tooltip>
          <Typography variant="caption" color="text.secondary">
            {p.state === 'RUNNING' ? `up ${uptimeText(p.uptime)}` : p.description}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
