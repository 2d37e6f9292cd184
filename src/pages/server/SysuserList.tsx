import {
  Alert,
  Button,
  Card,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import { useState } from 'react';
import type { Sysuser } from '../../../resources/sysusers';
import { EmptyState } from '../../generic/EmptyState';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { ConfirmButton } from './ConfirmButton';
import { DeployKeyDialog } from './DeployKeyDialog';
import { StatusChip } from './StatusChip';

const quota = (mb: number) => (mb > 0 ? `${mb} MB` : 'none');

/** The server's system users (root is never listed) and what can be done with each. */
export function SysuserList({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [passwordOf, setPasswordOf] = useState<Sysuser | null>(null);
  const [keyOf, setKeyOf] = useState<Sysuser | null>(null);
  const { data, isPending, error } = useGetList<Sysuser>('sysusers', {
    meta: { sid },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'user_name', order: 'ASC' },
  });
  const users = (data ?? []).filter((user) => user.user_name !== 'root');

  const remove = async (user: Sysuser) => {
    try {
      await dp.delete('sysusers', { id: user.id, previousData: user, meta: { sid } });
      notify(`${user.user_name} deleted.`, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['sysusers'] });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    }
  };

  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  return (
    <Card variant="outlined" sx={{ overflowX: 'auto' }}>
      {!isPending && users.length === 0 ? (
        <EmptyState
          icon={PeopleOutline}
          title="No system users yet"
          text="Create one with the form: each web app runs as a system user."
        />
      ) : (
        <Table aria-label="System users">
          <TableHead>
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell>Quota (hard / soft)</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((user) => (
              <TableRow key={user.id} data-testid={`sysuser-${user.user_name}`}>
                <TableCell>
                  <strong>{user.user_name}</strong>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {quota(user.quota_hard)} / {quota(user.quota_soft)}
                </TableCell>
                <TableCell>
                  <StatusChip status={user.status} />
                  {user.error ? (
                    <Typography variant="body2" color="error">
                      {user.error}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                    <Button
                      size="small"
                      disabled={!online || user.status !== 'active'}
                      onClick={() => setPasswordOf(user)}
                    >
                      Password
                    </Button>
                    <Button
                      size="small"
                      disabled={!online || user.status !== 'active'}
                      onClick={() => setKeyOf(user)}
                    >
                      Deployment key
                    </Button>
                    <ConfirmButton
                      size="small"
                      color="error"
                      disabled={!online && user.status !== 'failed'}
                      aria-label={`Delete ${user.user_name}`}
                      title={`Delete ${user.user_name}?`}
                      content="The account and its home directory are removed from the server. This cannot be undone."
                      confirmLabel="Delete"
                      onConfirm={() => remove(user)}
                    >
                      Delete
                    </ConfirmButton>
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ChangePasswordDialog sid={sid} user={passwordOf} onClose={() => setPasswordOf(null)} />
      <DeployKeyDialog sid={sid} user={keyOf} online={online} onClose={() => setKeyOf(null)} />
    </Card>
  );
}
