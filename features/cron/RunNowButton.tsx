import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Tooltip,
  Typography,
} from '@mui/material';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import { useMutation } from '@tanstack/react-query';
import type { RaRecord } from 'ra-core';
import type { z } from 'zod';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { jobName } from './links';
import type { cronRunResult } from './resource';

type RunResult = z.infer<typeof cronRunResult>;

/**
 * Runs a job's command once, now, as its user (the declared `run` action; a minute at most),
 * and shows how it ended with the end of its output. Nothing is cached: the job is unchanged.
 */
export function RunNowButton({
  sid,
  job,
  disabled,
}: {
  sid: number;
  job: RaRecord;
  disabled?: boolean;
}) {
  const dataProvider = useStackdeckData();
  const [open, setOpen] = useState(false);
  const run = useMutation({
    mutationFn: () =>
      dataProvider.action<RunResult>('cronjobs', 'run', { params: { sid, cronId: job.id } }),
  });
  const what = jobName(job);
  const start = () => {
    setOpen(true);
    run.mutate();
  };
  const result = run.data;
  return (
    <>
      <Tooltip title={`Run ${what} now`}>
        <span>
          <IconButton
            aria-label={`Run ${what} now`}
            size="small"
            onClick={start}
            disabled={disabled || job.status !== 'active'}
          >
            <PlayArrowOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Dialog
        open={open}
        onClose={() => !run.isPending && setOpen(false)}
        fullWidth
        maxWidth="md"
        aria-labelledby={`run-${job.id}-title`}
      >
        <DialogTitle id={`run-${job.id}-title`}>Run {what} now</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            As {String(job.sys_user)}, from its home directory; stopped after a minute.
          </Typography>
          {run.isPending ? <LinearProgress aria-label="Running" /> : null}
          {run.isError ? (
            <Alert severity="error">{errorMessage(run.error, 'The job could not be run.')}</Alert>
          ) : null}
          {result ? (
            <Box data-testid="run-result">
              <Alert
                severity={result.code === 0 && !result.timed_out ? 'success' : 'warning'}
                sx={{ mb: 2 }}
              >
                {result.timed_out ? 'Stopped after a minute.' : `Exited with code ${result.code}.`}
                {result.truncated ? ' Only the end of its output is shown.' : ''}
              </Alert>
              <Box
                component="pre"
                sx={{
                  m: 0,
                  p: 1.5,
                  bgcolor: 'action.hover',
                  borderRadius: 1,
                  fontSize: 13,
                  maxHeight: 360,
                  overflow: 'auto',
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-all',
                }}
              >
                {result.output || '(no output)'}
              </Box>
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={run.isPending} autoFocus>
            Close
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
