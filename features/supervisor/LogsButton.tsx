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
} from '@mui/material';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import { useQuery } from '@tanstack/react-query';
import type { RaRecord } from 'ra-core';
import { useState } from 'react';
import type { z } from 'zod';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { svLog } from './resource';

/** The end of a job's output (its first process), read when opened and on demand. */
export function LogsButton({
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
  const name = String(job.name);
  const log = useQuery({
    queryKey: ['svjobs', 'logs', sid, name],
    queryFn: ({ signal }) =>
      dataProvider.action<z.infer<typeof svLog>>('svjobs', 'logs', {
        params: { sid },
        query: { name },
        signal,
      }),
    enabled: open,
    gcTime: 0,
  });
  return (
    <>
      <Tooltip title={`Output of ${name}`}>
        <span>
          <IconButton
            aria-label={`Output of ${name}`}
            size="small"
            disabled={disabled}
            onClick={() => setOpen(true)}
          >
            <ArticleOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="md"
        aria-labelledby={`log-${name}`}
      >
        <DialogTitle id={`log-${name}`}>Output of {name}</DialogTitle>
        <DialogContent>
          {log.isFetching ? <LinearProgress aria-label="Reading" sx={{ mb: 1 }} /> : null}
          {log.isError ? (
            <Alert severity="error">
              {errorMessage(log.error, 'The output could not be read.')}
            </Alert>
          ) : null}
          {log.data?.truncated ? (
            <Alert severity="info" sx={{ mb: 1 }}>
              Only the end of the output is shown.
            </Alert>
          ) : null}
          {log.data ? (
            <Box
              component="pre"
              data-testid="job-output"
              sx={{
                m: 0,
                p: 1.5,
                bgcolor: 'action.hover',
                borderRadius: 1,
                fontSize: 13,
                maxHeight: 420,
                overflow: 'auto',
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
              }}
            >
              {log.data.text || '(no output yet)'}
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void log.refetch()} disabled={log.isFetching}>
            Read again
          </Button>
          <Button onClick={() => setOpen(false)} autoFocus>
            Close
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
