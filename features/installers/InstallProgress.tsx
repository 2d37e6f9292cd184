import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useGetList } from 'ra-core';
import { Link } from 'react-router-dom';
import type { Clone } from '../../resources/clone-events';
import { CopyButton } from '../../src/generic/CopyButton';
import { useTaskPush } from '../../src/live/taskPush';
import { clonePollMs, cloneState } from '../../src/shell/messages';
import { appPaths } from '../webapps/api';
import type { InstallAnswer } from './names';

/** One line of the admin login, with its copy button. */
function LoginLine({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="body2" sx={{ minWidth: 90, color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {value}
      </Typography>
      <CopyButton value={value} label={`Copy the ${label.toLowerCase()}`} />
    </Stack>
  );
}

/**
 * An install under way: the admin login (shown this once), the task's progress (ten times the
 * last event's code, per cent), pushed live or polled like the messages panel, each step as it
 * happened, and where to go once it ended.
 */
export function InstallProgress({
  sid,
  label,
  answer,
  onRetry,
  words = {
    running: `Installing ${label}…`,
    done: `${label} is installed`,
    failed: `${label} could not be installed`,
  },
}: {
  sid: number;
  label: string;
  answer: InstallAnswer;
  onRetry: () => void;
  /** The headline while it runs, once done, once failed (a clone says "Cloning…"). */
  words?: { running: string; done: string; failed: string };
}) {
  const pushing = useTaskPush();
  const { data } = useGetList<Clone>(
    'clone-events',
    { filter: { id: answer.task_id }, pagination: { page: 1, perPage: 1 } },
    {
      refetchInterval: (query) =>
        query.state.data?.data[0]?.status === 'running' || !query.state.data
          ? clonePollMs(pushing)
          : false,
    },
  );
  const task = data?.[0];
  const state = task ? cloneState(task) : { kind: 'cloning' as const, percent: 0, step: null };
  // The bar and its label read the same number: the last step reached (a failed install stays
  // where it stopped, never a full bar), 100 only once completed.
  const lastCode = task?.events.at(-1)?.code ?? 0;
  const percent =
    state.kind === 'cloning'
      ? state.percent
      : state.kind === 'success'
        ? 100
        : Math.min(100, Math.max(0, lastCode * 10));
  // The step in words, as the server named it (never its code).
  const step = task?.events.at(-1)?.event ?? null;
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }} data-testid="install-progress">
      {answer.login ? (
        <Alert severity="info" icon={false}>
          <Typography variant="subtitle2" gutterBottom>
            The admin login of the new site: it is shown only now
          </Typography>
          <LoginLine label="Address" value={answer.login.url} />
          <LoginLine label="User" value={answer.login.user} />
          <LoginLine label="Password" value={answer.login.password} />
        </Alert>
      ) : null}
      <Box>
        <Stack direction="row" justifyContent="space-between" sx={{ mb: 0.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {state.kind === 'success'
              ? words.done
              : state.kind === 'failed'
                ? words.failed
                : words.running}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="install-percent">
            {percent}%
          </Typography>
        </Stack>
        <LinearProgress
          variant="determinate"
          value={percent}
          color={
            state.kind === 'failed' ? 'error' : state.kind === 'success' ? 'success' : 'primary'
          }
          aria-label={step ? `${step}: ${percent}%` : `Progress: ${percent}%`}
          sx={{ height: 8, borderRadius: 4 }}
        />
      </Box>
      <Box component="ol" sx={{ m: 0, pl: 3 }} aria-label="Steps">
        {(task?.events ?? []).map((e, i) => (
          <Typography
            component="li"
            variant="body2"
            key={i}
            color={/ failed: /.test(e.event) ? 'error' : undefined}
          >
            {e.event}
          </Typography>
        ))}
      </Box>
      {state.kind === 'success' ? (
        <Stack direction="row" spacing={1}>
          <Button variant="contained" component={Link} to={appPaths.summary(sid, answer.webapp_id)}>
            Open the web app
          </Button>
          {answer.login ? (
            <Button variant="outlined" href={answer.login.url} target="_blank" rel="noopener">
              Sign in to the site
            </Button>
          ) : null}
        </Stack>
      ) : null}
      {state.kind === 'failed' ? (
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={onRetry}>
            Try again
          </Button>
          <Button component={Link} to={appPaths.list(sid)}>
            Back to the web apps
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}
