import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import type { WpUser } from './names';

export interface Role {
  name: string;
  label: string;
}

/**
 * Creates a user (login, mail, role, password) or changes one's role and password: an empty
 * password field leaves the password as it is.
 */
export function UserDialog(props: {
  user: WpUser | null;
  roles: Role[];
  onClose: () => void;
  onSave: (values: Record<string, string>) => Promise<void>;
}) {
  const { user, roles } = props;
  const [values, setValues] = useState<Record<string, string>>({
    login: '',
    email: '',
    role: user?.roles[0] ?? 'subscriber',
    password: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: string) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  const save = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const body: Record<string, string> = user
        ? Object.fromEntries(
            Object.entries({
              role: values.role !== user.roles[0] ? (values.role ?? '') : '',
              password: values.password ?? '',
            }).filter(([, v]) => v !== ''),
          )
        : values;
      await props.onSave(body);
    } catch (e) {
      setErrors(fieldErrorsOf(e));
      setProblem(errorMessage(e, 'WordPress did not take it.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm">
      <DialogTitle>{user ? `Change ${user.login}` : 'Add a user'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {problem ? <Alert severity="error">{problem}</Alert> : null}
          {user ? null : (
            <>
              <TextField
                label="Login"
                value={values.login}
                onChange={set('login')}
                error={!!errors.login}
                helperText={errors.login}
                size="small"
              />
              <TextField
                label="Mail address"
                value={values.email}
                onChange={set('email')}
                error={!!errors.email}
                helperText={errors.email}
                size="small"
              />
            </>
          )}
          <TextField
            select
            label="Role"
            value={values.role}
            onChange={set('role')}
            error={!!errors.role}
            helperText={errors.role}
            size="small"
          >
            {roles.map((r) => (
              <MenuItem key={r.name} value={r.name}>
                {r.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={user ? 'New password (empty: unchanged)' : 'Password'}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={!!errors.password}
            helperText={errors.password ?? 'At least 12 characters'}
            size="small"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()}>
          {user ? 'Save' : 'Add user'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
