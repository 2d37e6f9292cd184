import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { linesOf } from '../../src/generic/widgets/LinesWidget';
import { useStackdeckData } from '../../src/hooks';
import type { cacheState } from './cacheResource';
import { cacheSettings } from './names';
import { useApp } from './useApp';
import type { z } from 'zod';

type State = z.infer<typeof cacheState>;

/**
 * /cache-control/{serverId}/{webAppId}: nginx's FastCGI cache of the app — on or off, how long
 * a page is kept, the paths and cookies that always reach PHP — and a purge. Answers carry
 * X-Stackdeck-Cache: HIT, MISS or BYPASS.
 */
export default function CacheControlPage() {
  const { sid, appId, app } = useApp();
  const dp = useStackdeckData();
  const notify = useNotify();
  const call = (action: string, method?: { body?: unknown }) =>
    dp.action<State>('nginxcache', action, { params: { sid }, query: { wsid: appId }, ...method });
  const query = useQuery({
    queryKey: ['nginxcache', sid, appId],
    queryFn: () => call('read'),
  });
  const [ttl, setTtl] = useState('');
  const [paths, setPaths] = useState('');
  const [cookies, setCookies] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = query.data;
  useEffect(() => {
    if (!state) return;
    setTtl(String(state.ttl_seconds));
    setPaths(state.bypass_paths.join('\n'));
    setCookies(state.bypass_cookies.join('\n'));
  }, [state]);
  if (!app || !state) return null;

  const run = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await what();
      notify(done, { type: 'success' });
      await query.refetch();
    } catch (error) {
      setProblem(errorMessage(error, 'The web cache could not be changed.'));
    } finally {
      setBusy(false);
    }
  };
  const settings = () => {
    const parsed = cacheSettings.safeParse({
      ttl_seconds: ttl,
      bypass_paths: linesOf(paths).filter(Boolean),
      bypass_cookies: linesOf(cookies).filter(Boolean),
    });
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
    return parsed.data;
  };
  return (
    <>
      <PageHeader
        title="Web cache"
        description={`nginx keeps ${app.name}'s PHP pages and answers them without PHP.`}
      />
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
            <Switch
              checked={state.enabled}
              disabled={busy}
              slotProps={{ input: { 'aria-label': 'Web cache on' } }}
              onChange={(_, on) =>
                void run(
                  () => (on ? call('enable', { body: settings() }) : call('disable')),
                  on ? 'The web cache is on.' : 'The web cache is off.',
                )
              }
            />
            <Typography>{state.enabled ? 'On' : 'Off'}</Typography>
          </Stack>
          <Stack spacing={2} sx={{ maxWidth: 560 }}>
            <TextField
              label="Keep pages for (seconds)"
              value={ttl}
              onChange={(e) => setTtl(e.target.value)}
              size="small"
            />
            <TextField
              label="Paths that skip the cache"
              helperText="One per line, such as /wp-admin"
              value={paths}
              onChange={(e) => setPaths(e.target.value)}
              multiline
              minRows={2}
            />
            <TextField
              label="Cookies that skip the cache"
              helperText="One per line: a visitor with one (signed in, a cart) always reaches PHP"
              value={cookies}
              onChange={(e) => setCookies(e.target.value)}
              multiline
              minRows={2}
            />
            <Stack direction="row" spacing={1}>
              <Button
                variant="contained"
                disabled={busy || !state.enabled}
                onClick={() =>
                  void run(() => call('edit', { body: settings() }), 'The web cache was changed.')
                }
              >
                Save
              </Button>
              <Button
                disabled={busy || !state.enabled}
                onClick={() => void run(() => call('purge'), 'Every cached page was dropped.')}
              >
                Purge cache
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
    </>
  );
}
