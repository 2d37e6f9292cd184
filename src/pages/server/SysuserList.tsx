import { Alert, Button, Stack } from '@mui/material';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import { useGetList } from 'ra-core';
import { useState } from 'react';
import type { Sysuser } from '../../../resources/sysusers';
import { errorMessage } from '../../generic/serverErrors';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { ConfirmButton } from './ConfirmButton';
import { DeployKeyDialog } from './DeployKeyDialog';
import { UserItemTable, useRemoveUserItem } from './UserItemTable';

const quota = (mb: number) => (mb > 0 ? `${mb} MB` : 'none');

/** The server's system users (root is never listed) and what can be done with each. */
export function SysuserList({ sid, online }: { sid: number; online: boolean }) {
  const remove = useRemoveUserItem<Sysuser>('sysusers', sid);
  const [passwordOf, setPasswordOf] = useState<Sysuser | null>(null);
  const [keyOf, setKeyOf] = useState<Sysuser | null>(null);
  const { data, isPending, error } = useGetList<Sysuser>('sysusers', {
    meta: { sid },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'user_name', order: 'ASC' },
  });
  const users = (data ?? []).filter((user) => user.user_name !== 'root');

  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  return (
    <UserItemTable
      label="System users"
      items={users}
      isPending={isPending}
      empty={{
        icon: PeopleOutline,
        title: 'No system users yet',
        text: 'Create one with the form: each web app runs as a system user.',
      }}
      testId={(user) => `sysuser-${user.user_name}`}
      detailHeading="Quota (hard / soft)"
      detail={(user) => `${quota(user.quota_hard)} / ${quota(user.quota_soft)}`}
      detailSx={{ whiteSpace: 'nowrap' }}
      actionsHeading="Actions"
      actions={(user) => (
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
            onConfirm={() => remove(user, `${user.user_name} deleted.`)}
          >
            Delete
          </ConfirmButton>
        </Stack>
      )}
      sx={{ overflowX: 'auto' }}
    >
      <ChangePasswordDialog sid={sid} user={passwordOf} onClose={() => setPasswordOf(null)} />
      <DeployKeyDialog sid={sid} user={keyOf} online={online} onClose={() => setKeyOf(null)} />
    </UserItemTable>
  );
}
