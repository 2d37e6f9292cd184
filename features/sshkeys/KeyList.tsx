import { Chip, Typography } from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { type RaRecord, useGetIdentity } from 'ra-core';
import { useMemo } from 'react';
import type { z } from 'zod';
import { pubkeys, type pubkeySchema } from './resource';
import { GenericListBody } from '../../src/generic/GenericListBody';
import { StatusCell } from '../../src/generic/StatusCell';

type Pubkey = z.infer<typeof pubkeySchema>;

/** Who added the key, as the viewer reads it: "you", or the adder's name and address. */
export function adderOf(key: Pick<Pubkey, 'added_by'>, viewerId: number | undefined): string {
  if (!key.added_by) return 'a former user';
  if (key.added_by.id === viewerId) return 'you';
  return `${key.added_by.user_name} (${key.added_by.email})`;
}

const caption = { variant: 'caption', color: 'text.secondary', component: 'div' } as const;

/**
 * The keys in the server's authorized_keys files on the generic list, with who added each: on a
 * shared server, team members add keys too, and theirs go when they leave the team (`removing`
 * until the server has let go).
 */
export function KeyList({ sid, online }: { sid: number; online: boolean }) {
  const { identity } = useGetIdentity();
  const viewerId = identity?.id == null ? undefined : Number(identity.id);
  const meta = useMemo(() => ({ sid }), [sid]);
  return (
    <GenericListBody
      resource={pubkeys}
      label="SSH keys"
      meta={meta}
      // `sync` (a check against the server) is no filter.
      filterFields={[]}
      labels={{ user_name: 'User', label: 'Key' }}
      render={{
        user_name: (key) => <strong>{String(key.user_name)}</strong>,
        label: (key) => (
          <>
            {String(key.label)}
            <Typography {...caption}>Added by {adderOf(key as Pubkey, viewerId)}</Typography>
          </>
        ),
        fingerprint: (key) => (
          <Typography {...caption} sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {String(key.type)} {String(key.fingerprint)}
          </Typography>
        ),
        status: (key: RaRecord) =>
          key.status === 'removing' ? (
            <Chip
              size="small"
              color="warning"
              label="Being removed"
              title="Its adder no longer reaches the server: waiting for the server to take it off"
            />
          ) : (
            <StatusCell record={key} />
          ),
      }}
      deletable={{
        verb: 'Remove',
        name: (key) => String(key.label),
        what: (key) => `the key "${String(key.label)}"`,
        consequence: (key) =>
          `It is taken out of ${String(key.user_name)}'s authorized_keys on the server.`,
      }}
      actionsDisabled={(key) => (!online && key.status !== 'failed') || key.status === 'removing'}
      empty={{
        icon: KeyOutlined,
        title: 'No SSH keys yet',
        text: 'Add a public key to let its owner sign in without a password.',
      }}
    />
  );
}
