import { useState } from 'react';
import { Button, Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import Casino from '@mui/icons-material/Casino';
import { generatePassword } from '../../src/generic/passwords';
import { FormDialog, useSend } from './FormDialog';
import type { Mailbox } from './resource';

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
    <FormDialog
      title={`Change ${mailbox.address}`}
      onClose={onClose}
      onSubmit={() =>
        void send(() => save({ ...(password ? { password } : {}), quota_mb: Number(quota) }))
      }
      busy={busy}
      error={error}
      saveLabel="Save"
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label="New password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(fields.password)}
          helperText={fields.password ?? 'Empty keeps it. Shown once: the panel keeps only a hash'}
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
    </FormDialog>
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
    <FormDialog
      title={`Forward ${mailbox.address}`}
      onClose={onClose}
      onSubmit={() => void send(() => save({ targets, keep_copy: keep }))}
      busy={busy}
      error={error}
      saveLabel="Save"
    >
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
    </FormDialog>
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
    <FormDialog
      title={`Delete ${mailbox.address}?`}
      onClose={onClose}
      onSubmit={() => void send(() => remove(withMail))}
      busy={busy}
      error={error}
      saveLabel={`Delete ${mailbox.address}`}
      danger
    >
      <span>
        {mailbox.address} stops receiving mail and can no longer sign in. Its mail is kept aside on
        the server for 30 days unless you delete it too.
      </span>
      <FormControlLabel
        control={<Checkbox checked={withMail} onChange={(e) => setWithMail(e.target.checked)} />}
        label="Also delete its mail"
      />
    </FormDialog>
  );
}
