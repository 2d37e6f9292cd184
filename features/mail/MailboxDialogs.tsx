import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  TextField,
} from '@mui/material';
import Casino from '@mui/icons-material/Casino';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { generatePassword } from '../../src/generic/passwords';
import type { Mailbox } from './resource';

/** A dialog that sends once and shows the server's words at their field. */
export function useSend(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const send = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setFields({});
    setError(null);
    try {
      await call();
      onDone();
    } catch (e) {
      const found = fieldErrorsOf(e);
      setFields(found);
      if (!Object.keys(found).length) setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, fields, error, send };
}

interface DialogProps {
  mailbox: Mailbox;
  onClose: () => void;
}

/** A new password (generated or typed) and the quota. */
export function PasswordDialog({
  mailbox,
  onClose,
  save,
}: DialogProps & { save: (data: { password?: string; quota_mb: number }) => Promise<unknown> }) {
  const [password, setPassword] = useState('');
  const [quota, setQuota] = useState(String(mailbox.quota_mb));
  const { busy, fields, error, send } = useSend(onClose);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Change {mailbox.address}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              label="New password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={Boolean(fields.password)}
              helperText={
                fields.password ?? 'Empty keeps it. Shown once: the panel keeps only a hash'
              }
              autoComplete="new-password"
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
              fullWidth
            />
            <Button startIcon={<Casino />} onClick={() => setPassword(generatePassword(20))}>
              Generate
            </Button>
          </Stack>
          <TextField
            label="Quota (MB)"
            value={quota}
            onChange={(e) => setQuota(e.target.value)}
            error={Boolean(fields.quota_mb)}
            helperText={fields.quota_mb ?? '0: no limit'}
          />
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy}
          onClick={() =>
            void send(() => save({ ...(password ? { password } : {}), quota_mb: Number(quota) }))
          }
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Where the mailbox's mail also goes, one address a line; none stops forwarding. */
export function ForwardDialog({
  mailbox,
  onClose,
  save,
}: DialogProps & { save: (data: { targets: string[]; keep_copy: boolean }) => Promise<unknown> }) {
  const [text, setText] = useState(mailbox.forward_to.join('\n'));
  const [keep, setKeep] = useState(mailbox.keep_copy);
  const { busy, fields, error, send } = useSend(onClose);
  const targetError = Object.entries(fields).find(([k]) => k.startsWith('targets'))?.[1];
  const targets = text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Forward {mailbox.address}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Forward to"
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={3}
            error={Boolean(targetError)}
            helperText={targetError ?? 'One address a line; leave empty to stop forwarding'}
          />
          <FormControlLabel
            control={<Checkbox checked={keep} onChange={(e) => setKeep(e.target.checked)} />}
            label="Keep a copy in this mailbox"
          />
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy}
          onClick={() => void send(() => save({ targets, keep_copy: keep }))}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Deleting names the address, and offers to delete its mail too (else kept 30 days). */
export function DeleteDialog({
  mailbox,
  onClose,
  remove,
}: DialogProps & { remove: (deleteMail: boolean) => Promise<unknown> }) {
  const [withMail, setWithMail] = useState(false);
  const { busy, error, send } = useSend(onClose);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Delete {mailbox.address}?</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <span>
            {mailbox.address} stops receiving mail and can no longer sign in. Its mail is kept aside
            on the server for 30 days unless you delete it too.
          </span>
          <FormControlLabel
            control={
              <Checkbox checked={withMail} onChange={(e) => setWithMail(e.target.checked)} />
            }
            label="Also delete its mail"
          />
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() => void send(() => remove(withMail))}
        >
          Delete {mailbox.address}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
