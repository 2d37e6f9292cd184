import { useState } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, Tooltip, Typography } from '@mui/material';
import BackupOutlined from '@mui/icons-material/BackupOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useGetList } from 'ra-core';
import type { Clone } from '../../resources/clone-events';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { useTaskPush } from '../../src/live/taskPush';
import { clonePollMs, cloneState } from '../../src/shell/messages';

/**
 * A task followed on the page (a backup or a restore): the same events the messages panel
 * shows, pushed live or polled, as a bar and the last step in words.
 */
export function TaskProgress({
  taskId,
  words,
  onEnd,
}: {
  taskId: number;
  words: { running: string; done: string; failed: string };
  onEnd?: () => void;
}) {
  const pushing = useTaskPush();
  const { data } = useGetList<Clone>(
    'clone-events',
    { filter: { id: taskId }, pagination: { page: 1, perPage: 1 } },
    {
      refetchInterval: (query) => {
        const task = query.state.data?.data[0];
        if (task && task.status !== 'running') {
          onEnd?.();
          return false;
        }
        return clonePollMs(pushing);
      },
    },
  );
  const task = data?.[0];
  const state = task ? cloneState(task) : { kind: 'cloning' as const, percent: 0, step: null };
  const percent = state.kind === 'cloning' ? state.percent : 100;
  const step = task?.events.at(-1)?.event ?? null;
  return (
    <Box data-testid="backup-task" role="status" sx={{ my: 2, maxWidth: 720 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {state.kind === 'success'
            ? words.done
            : state.kind === 'failed'
              ? words.failed
              : words.running}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {step ?? ''}
        </Typography>
      </Stack>
      <LinearProgress
        variant={state.kind === 'cloning' && percent === 0 ? 'indeterminate' : 'determinate'}
        value={percent}
        color={state.kind === 'failed' ? 'error' : state.kind === 'success' ? 'success' : 'primary'}
        aria-label={step ? `${step}: ${percent}%` : `Progress: ${percent}%`}
        sx={{ height: 6, borderRadius: 3 }}
      />
    </Box>
  );
}

/** Refreshes whatever the backup pages show after a change. */
export function useBackupsRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['backups'] }),
      queryClient.invalidateQueries({ queryKey: ['backup-storage'] }),
      queryClient.invalidateQueries({ queryKey: ['backup-credit'] }),
    ]);
}

/**
 * Back up now: a run of the policy, outside its schedule. The run shows in the files at once
 * (queued, then running, then its end); its task is followed here and in the messages panel.
 */
export function BackupNowButton({
  backupId,
  subject,
  variant = 'text',
  onStarted,
}: {
  backupId: number;
  subject: string;
  variant?: 'text' | 'contained' | 'outlined';
  onStarted: (taskId: number) => void;
}) {
  const dp = useStackdeckData();
  const refresh = useBackupsRefresh();
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: () =>
      dp.action<{ task_id: number; file_id: number }>('backups', 'runNow', {
        query: { bid: backupId },
      }),
    onSuccess: async (answer) => {
      setError(null);
      onStarted(answer.task_id);
      await refresh();
    },
    onError: (e) => setError(errorMessage(e, 'The backup could not be started.')),
  });
  return (
    <>
      <Tooltip title={`Back up ${subject} now`}>
        <span>
          <Button
            size="small"
            variant={variant}
            startIcon={<BackupOutlined />}
            onClick={() => run.mutate()}
            disabled={run.isPending}
            aria-label={`Back up ${subject} now`}
          >
            Back up now
          </Button>
        </span>
      </Tooltip>
      {error ? (
        <Alert severity="error" onClose={() => setError(null)} sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
    </>
  );
}
