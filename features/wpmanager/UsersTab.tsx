import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { errorMessage } from '../../src/generic/serverErrors';
import { ConfirmDialog } from './ConfirmDialog';
import type { WpUser } from './names';
import { type Role, UserDialog } from './UserDialog';
import { useWpCall } from './useWpCall';

/** The site's users: add one, change a role or password, delete one (after a question). */
export function UsersTab() {
  const { sid, appId, call } = useWpCall();
  const notify = useNotify();
  const query = useQuery({
    queryKey: ['wpmanager', 'users', sid, appId],
    queryFn: () => call<{ users: WpUser[]; roles: Role[] }>('users'),
  });
  const [editing, setEditing] = useState<WpUser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WpUser | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (query.error)
    return <Alert severity="error">{errorMessage(query.error, 'WordPress did not answer.')}</Alert>;
  if (!query.data) return null;
  const { users, roles } = query.data;
  const label = (name: string) => roles.find((r) => r.name === name)?.label ?? name;

  const save = async (values: Record<string, string>) => {
    if (editing === 'new') await call('createUser', { body: values });
    else if (editing) await call('changeUser', { params: { wpUserId: editing.id }, body: values });
    notify(editing === 'new' ? 'The user was added.' : 'The user was changed.', {
      type: 'success',
    });
    setEditing(null);
    await query.refetch();
  };
  const remove = async (user: WpUser) => {
    setDeleting(null);
    setProblem(null);
    try {
      await call('deleteUser', { params: { wpUserId: user.id } });
      notify(`${user.login} was deleted.`, { type: 'success' });
      await query.refetch();
    } catch (e) {
      setProblem(errorMessage(e, `${user.login} could not be deleted.`));
    }
  };
  return (
    <>
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Stack direction="row" sx={{ mb: 2 }}>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Add user
        </Button>
      </Stack>
      <Card variant="outlined">
        <Table size="small" aria-label="WordPress users">
          <TableHead>
            <TableRow>
              <TableCell>Login</TableCell>
              <TableCell>Mail address</TableCell>
              <TableCell>Role</TableCell>
              <TableCell>Registered</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((u) => (
              <TableRow key={u.id}>
                <TableCell>{u.login}</TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>
                  {u.roles.map((r) => (
                    <Chip key={r} size="small" label={label(r)} sx={{ mr: 0.5 }} />
                  ))}
                </TableCell>
                <TableCell>{u.registered}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    onClick={() => setEditing(u)}
                    aria-label={`Change ${u.login}`}
                  >
                    Change
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setDeleting(u)}
                    aria-label={`Delete ${u.login}`}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {editing ? (
        <UserDialog
          user={editing === 'new' ? null : editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSave={save}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.login ?? ''}?`}
        text="Their posts and pages go to another administrator of the site."
        confirm="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </>
  );
}
