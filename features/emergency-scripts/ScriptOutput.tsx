import { Box, Chip, Stack, Typography } from '@mui/material';
import { useGetList } from 'ra-core';
import type { Clone } from '../../resources/clone-events';
import { useTaskPush } from '../../src/live/taskPush';
import { clonePollMs } from '../../src/shell/messages';

const STATUS = {
  running: { label: 'Running', color: 'info' },
  completed: { label: 'Done', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
} as const;

/**
 * One server's output of a run: the task's events, line by line as the agent says them
 * (pushed live, polled while no push arrives), then its end.
 */
export function ScriptOutput({ taskId, serverName }: { taskId: number; serverName: string }) {
  const pushing = useTaskPush();
  const { data } = useGetList<Clone>(
    'clone-events',
    { filter: { id: taskId }, pagination: { page: 1, perPage: 1 } },
    {
      refetchInterval: (query) =>
        query.state.data?.data[0]?.status === 'running' || !query.state.data?.data[0]
          ? clonePollMs(pushing)
          : false,
    },
  );
  const task = data?.[0];
  const status = STATUS[task?.status ?? 'running'];
  return (
    <Box
      component="section"
      aria-label={`Output on ${serverName}`}
      data-testid="script-output"
      sx={{ mb: 2 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {serverName}
        </Typography>
        <Chip size="small" label={status.label} color={status.color} />
      </Stack>
      <Box
        component="pre"
        role="log"
        aria-live="polite"
        sx={{
          m: 0,
          p: 1.5,
          maxHeight: 360,
          overflow: 'auto',
          bgcolor: 'grey.900',
          color: 'grey.100',
          borderRadius: 1,
          fontSize: 13,
          whiteSpace: 'pre-wrap',
        }}
      >
        {(task?.events ?? []).map((e) => e.event).join('\n') || 'Waiting for the server...'}
      </Box>
    </Box>
  );
}
