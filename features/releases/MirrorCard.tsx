import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { ReleaseMirror } from './resource';

const KEY = ['app-release-mirror'];

/**
 * The catalogue's mirror (`admin/app-releases-mirror`): shown, edited, saved or cleared in place.
 * The help says what a mirror may and may not change: where archives come from, never which.
 */
export function MirrorCard() {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => dp.action<ReleaseMirror>('app-release-mirror', 'get', { signal }),
    retry: false,
  });
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mirror = current.data?.mirror ?? null;

  const save = async (value: string | null) => {
    setBusy(true);
    setProblem(null);
    try {
      const saved = await dp.action<ReleaseMirror>('app-release-mirror', 'set', {
        body: { mirror: value },
      });
      queryClient.setQueryData(KEY, saved);
      setDraft(null);
      notify(saved.mirror ? 'Downloads now come from the mirror.' : 'The mirror is cleared.', {
        type: 'success',
      });
    } catch (error) {
      const field = fieldErrorsOf(error).mirror;
      if (field) setProblem(field);
      else notify(errorMessage(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ mb: 3 }} component="section" aria-label="Mirror">
      {current.isFetching || busy ? <LinearProgress aria-label="Mirror" /> : null}
      <CardContent>
        <Typography variant="h6" component="h2">
          Mirror
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          With a mirror, installers download{' '}
          <Box component="code">{'<mirror>/<app>/<file name of the official URL>'}</Box> instead of
          the official URL. The SHA-256 stays the pinned one: an archive from the mirror that
          differs is refused, so a mirror cannot change what is installed.
        </Typography>
        {current.error ? (
          <Alert severity="error">
            {errorMessage(current.error, 'The mirror could not be read.')}
          </Alert>
        ) : draft === null ? (
          <Stack direction="row" spacing={2} alignItems="center" flexWrap="wrap" useFlexGap>
            <Typography data-testid="mirror-current" sx={mirror ? { fontFamily: 'monospace' } : {}}>
              {mirror ?? 'None: downloads come from the official URLs'}
            </Typography>
            <Button
              variant="outlined"
              disabled={!current.isSuccess}
              onClick={() => setDraft(mirror ?? '')}
            >
              {mirror ? 'Change mirror' : 'Set a mirror'}
            </Button>
            {mirror ? (
              <Button color="error" disabled={busy} onClick={() => void save(null)}>
                Clear mirror
              </Button>
            ) : null}
          </Stack>
        ) : (
          <Box
            component="form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              // Saving an empty address clears the mirror.
              void save(draft.trim() || null);
            }}
          >
            <TextField
              label="Mirror address"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="http://127.0.0.1:8080/releases"
              error={Boolean(problem)}
              helperText={problem ?? 'http(s), no user name or password; a local address is fine'}
              fullWidth
              autoFocus
              disabled={busy}
              slotProps={{ htmlInput: { spellCheck: false } }}
            />
            <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
              <Button type="submit" variant="contained" disabled={busy}>
                Save mirror
              </Button>
              <Button
                disabled={busy}
                onClick={() => {
                  setDraft(null);
                  setProblem(null);
                }}
              >
                Cancel
              </Button>
            </Stack>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
