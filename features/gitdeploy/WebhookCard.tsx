import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import type { z } from 'zod';
import { CopyButton } from '../../src/generic/CopyButton';
import { errorMessage } from '../../src/generic/serverErrors';
import type { webhookSchema } from './resource';
import { useGitCall } from './useGitCall';

type Webhook = z.infer<typeof webhookSchema>;

/** The webhook: on or off, GitHub or GitLab, its URL, its secret (shown on asking); a new one. */
export function WebhookCard() {
  const { sid, appId, call } = useGitCall();
  const notify = useNotify();
  const client = useQueryClient();
  const key = ['gitdeploy', 'webhook', sid, appId];
  const hook = useQuery({ queryKey: key, queryFn: () => call<Webhook>('webhook') });
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reveal = async () => {
    try {
      setSecret((await call<{ secret: string }>('webhookSecret')).secret);
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    }
  };
  const change = async (body: Record<string, unknown>) => {
    try {
      const answer = await call<Webhook>('setWebhook', body);
      client.setQueryData(key, answer);
      if (answer.secret) setSecret(answer.secret);
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    }
  };
  const data = hook.data;
  return (
    <Paper sx={{ p: 2 }} aria-label="Webhook">
      <Typography variant="h6" component="h2">
        Webhook
      </Typography>
      {hook.error ? <Alert severity="error">{errorMessage(hook.error)}</Alert> : null}
      {data ? (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <FormControlLabel
              control={
                <Switch
                  checked={data.enabled}
                  onChange={(e) => void change({ enabled: e.target.checked })}
                />
              }
              label="Deploy on push"
            />
            <TextField
              select
              size="small"
              label="Provider"
              value={data.provider}
              onChange={(e) => void change({ provider: e.target.value })}
              sx={{ minWidth: 140 }}
            >
              <MenuItem value="github">GitHub</MenuItem>
              <MenuItem value="gitlab">GitLab</MenuItem>
            </TextField>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label="Payload URL"
              value={data.url}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <CopyButton value={data.url} label="Copy the webhook URL" />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              label={data.provider === 'github' ? 'Secret' : 'Secret token'}
              value={secret ?? '••••••••••••••••'}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-secret' } }}
            />
            {secret ? (
              <>
                <CopyButton value={secret} label="Copy the secret" />
                <Button onClick={() => setSecret(null)}>Hide</Button>
              </>
            ) : (
              <Button onClick={() => void reveal()}>Show</Button>
            )}
          </Stack>
          <Typography variant="body2">
            {data.provider === 'github'
              ? 'GitHub: Settings → Webhooks, content type application/json, this secret; push events.'
              : 'GitLab: Settings → Webhooks, this secret token; push events.'}
          </Typography>
          <div>
            <Button variant="outlined" onClick={() => setConfirming(true)}>
              Generate a new secret
            </Button>
          </div>
          <Dialog open={confirming} onClose={() => setConfirming(false)}>
            <DialogTitle>Make a new secret?</DialogTitle>
            <DialogContent>
              <DialogContentText>
                The webhook gets a new URL and secret; pushes signed with the old ones are refused
                until you paste the new ones into {data.provider === 'github' ? 'GitHub' : 'GitLab'}
                .
              </DialogContentText>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setConfirming(false)}>Cancel</Button>
              <Button
                variant="contained"
                onClick={() => {
                  setConfirming(false);
                  void change({ regenerate: true });
                }}
              >
                Make a new secret
              </Button>
            </DialogActions>
          </Dialog>
        </Stack>
      ) : null}
    </Paper>
  );
}
