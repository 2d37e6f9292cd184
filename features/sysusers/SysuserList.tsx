import { Button } from '@mui/material';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import type { RaRecord } from 'ra-core';
import { useMemo, useState } from 'react';
import { type Sysuser, sysusers } from './resource';
import { GenericListBody } from '../../src/generic/GenericListBody';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { DeployKeyDialog } from './DeployKeyDialog';

const quota = (mb: unknown) => (Number(mb) > 0 ? `${Number(mb)} MB` : 'none');

/**
 * The server's system users (the server never lists root) on the generic list, and what can be
 * done with each: a new password and the deployment key while the user is on the server, and
 * delete (offline only a failed one, which the server never had).
 */
export function SysuserList({ sid, online }: { sid: number; online: boolean }) {
  const [passwordOf, setPasswordOf] = useState<Sysuser | null>(null);
  const [keyOf, setKeyOf] = useState<Sysuser | null>(null);
  const meta = useMemo(() => ({ sid }), [sid]);
  const ready = (user: RaRecord) => online && user.status === 'active';
  return (
    <>
      <GenericListBody
        resource={sysusers}
        label="System users"
        meta={meta}
        sort={{ field: 'user_name', order: 'ASC' }}
        // `sync` (a check against the server) is no filter.
        filterFields={[]}
        labels={{ user_name: 'User', quota_hard: 'Hard quota', quota_soft: 'Soft quota' }}
        render={{
          user_name: (user) => <strong>{String(user.user_name)}</strong>,
          quota_hard: (user) => quota(user.quota_hard),
          quota_soft: (user) => quota(user.quota_soft),
        }}
        rowActions={(user) => (
          <>
            <Button
              size="small"
              disabled={!ready(user)}
              onClick={() => setPasswordOf(user as Sysuser)}
            >
              Password
            </Button>
            <Button size="small" disabled={!ready(user)} onClick={() => setKeyOf(user as Sysuser)}>
              Deployment key
            </Button>
          </>
        )}
        deletable={{
          name: (user) => String(user.user_name),
          consequence: () =>
            'The account and its home directory are removed from the server. This cannot be undone.',
        }}
        actionsDisabled={(user) => !online && user.status !== 'failed'}
        empty={{
          icon: PeopleOutline,
          title: 'No system users yet',
          text: 'Create one with the form: each web app runs as a system user.',
        }}
      />
      <ChangePasswordDialog sid={sid} user={passwordOf} onClose={() => setPasswordOf(null)} />
      <DeployKeyDialog sid={sid} user={keyOf} online={online} onClose={() => setKeyOf(null)} />
    </>
  );
}
