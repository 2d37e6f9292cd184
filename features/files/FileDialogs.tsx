import { type FormEvent, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  TextField,
} from '@mui/material';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';

/**
 * The file manager's dialogs: one form each, submitted with Enter, its server's field errors
 * shown at the field and what was typed kept when a call fails.
 */
export interface FieldSpec {
  name: string;
  label: string;
  initial?: string;
  /** Choices (a folder to copy into, an archive format). */
  options?: readonly string[];
  help?: string;
}

export function FormDialog({
  title,
  submit,
  fields,
  onSubmit,
  onClose,
}: {
  title: string;
  submit: string;
  fields: readonly FieldSpec[];
  onSubmit: (values: Record<string, string>) => Promise<void>;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.initial ?? f.options?.[0] ?? ''])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setGeneral(null);
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      const byField = fieldErrorsOf(error);
      const shown = Object.fromEntries(
        Object.entries(byField).filter(([k]) => fields.some((f) => f.name === k)),
      );
      setErrors(shown);
      if (Object.keys(shown).length === 0) setGeneral(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <form onSubmit={(e) => void send(e)} noValidate>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {general ? (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {general}
            </Alert>
          ) : null}
          {fields.map((f, i) => (
            <TextField
              key={f.name}
              name={f.name}
              label={f.label}
              select={Boolean(f.options)}
              value={values[f.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              error={Boolean(errors[f.name])}
              helperText={errors[f.name] ?? f.help}
              autoFocus={i === 0}
              fullWidth
              margin="dense"
            >
              {f.options?.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {submit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Delete, confirmed: to the trash unless the box is unticked. */
export function DeleteDialog({
  names,
  onDelete,
  onClose,
}: {
  names: readonly string[];
  onDelete: (trash: boolean) => Promise<void>;
  onClose: () => void;
}) {
  const [trash, setTrash] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = names.length === 1 ? names[0] : `${names.length} entries`;
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>Delete {what}?</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <DialogContentText>
          {trash
            ? "It goes to the user's trash folder (~/.trash), where it can be taken back."
            : 'It is deleted for good: it cannot be taken back.'}
        </DialogContentText>
        <FormControlLabel
          control={<Checkbox checked={trash} onChange={(e) => setTrash(e.target.checked)} />}
          label="Move to the trash"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            onDelete(trash)
              .then(onClose)
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setBusy(false));
          }}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The app's folders, for copy and move (loaded once the dialog opens). */
export function useFolders(load: () => Promise<{ dirs: string[] }>, open: boolean) {
  const [dirs, setDirs] = useState<string[] | null>(null);
  useEffect(() => {
    if (!open || dirs) return;
    load()
      .then((r) => setDirs(['/', ...r.dirs]))
      .catch(() => setDirs(['/']));
  }, [open, dirs, load]);
  return dirs;
}
