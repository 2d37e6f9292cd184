import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Grid,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import type { z } from 'zod';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { type appLimitsState, appLimits } from './limits';

type State = z.infer<typeof appLimitsState>;

/**
 * The app's limits on its settings page: how many processes and how much memory its cron
 * jobs, supervisor programs and deployment scripts may take (applied to its system user at
 * once), checked with the schema the API uses.
 */
export function LimitsCard({ sid, appId }: { sid: number; appId: number }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const call = (action: string, body?: unknown) =>
    dp.action<State>('applimits', action, { params: { sid, appId }, body });
  const query = useQuery({ queryKey: ['applimits', sid, appId], queryFn: () => call('ofApp') });
  const [values, setValues] = useState({ processes: '', memory_mb: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = query.data;
  useEffect(() => {
    if (state)
      setValues({ processes: String(state.processes), memory_mb: String(state.memory_mb) });
  }, [state]);
  if (!state) return null;

  const save = async (reset: boolean) => {
    setProblem(null);
    const parsed = appLimits.safeParse(values);
    if (!reset && !parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await (reset ? call('reset') : call('set', parsed.data));
      notify('The limits apply to the app’s jobs now.', { type: 'success' });
      await query.refetch();
    } catch (error) {
      setProblem(errorMessage(error, 'The limits could not be applied.'));
    } finally {
      setBusy(false);
    }
  };
  const field = (name: 'processes' | 'memory_mb', label: string, hint: string) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? hint}
      size="small"
      fullWidth
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
    />
  );
  const user = state.user_limits;
  return (
    <Card variant="outlined" sx={{ mt: 2 }} component="section" aria-labelledby="limits-title">
      <CardContent
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save(false);
        }}
      >
        <Typography id="limits-title" variant="h6" component="h2">
          Limits
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          What the app’s cron jobs, supervisor programs and deployment scripts may take, so one
          runaway job cannot take the server down. {state.defaults ? 'The defaults apply.' : ''}
        </Typography>
        {problem ? (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {problem}
          </Alert>
        ) : null}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            {field('processes', 'Processes at most', 'Of its user, threads included (16 to 16384)')}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {field('memory_mb', 'Memory per process (MiB)', '64 to 65536')}
          </Grid>
        </Grid>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {`${state.sys_user}’s jobs run under ${user.processes} processes and ${user.memory_mb} MiB per process (the largest setting of its apps).`}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={busy}>
            Save limits
          </Button>
          <Button disabled={busy || state.defaults} onClick={() => void save(true)}>
            Use the defaults
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
