import { type FormEvent, type ReactNode, useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';

/**
 * The email pages' dialogs: a form that sends once (Enter in a one-line field saves, Escape
 * cancels) and shows the server's words at their field, or above the buttons.
 */

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

/** A dialog that is a form: Enter in a one-line field saves, Escape cancels. */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  busy,
  error,
  saveLabel,
  danger = false,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  busy: boolean;
  error: string | null;
  saveLabel: string;
  danger?: boolean;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
            {error ? <Alert severity="error">{error}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            color={danger ? 'error' : 'primary'}
            disabled={busy}
          >
            {saveLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
