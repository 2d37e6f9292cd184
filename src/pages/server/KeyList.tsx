import { Alert, Typography } from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { useGetIdentity, useGetList } from 'ra-core';
import type { z } from 'zod';
import type { pubkeySchema } from '../../../resources/pubkeys';
import { errorMessage } from '../../generic/serverErrors';
import { ConfirmButton } from './ConfirmButton';
import { UserItemTable, useRemoveUserItem } from './UserItemTable';

type Pubkey = z.infer<typeof pubkeySchema>;

/** Who added the key, as the viewer reads it: "you", or the adder's name and address. */
export function adderOf(key: Pick<Pubkey, 'added_by'>, viewerId: number | undefined): string {
  if (!key.added_by) return 'a former user';
  if (key.added_by.id === viewerId) return 'you';
  return `${key.added_by.user_name} (${key.added_by.email})`;
}

/**
 * The keys in the server's authorized_keys files, by system user, with who added each: on a
 * shared server, team members add keys too, and theirs go when they leave the team.
 */
export function KeyList({ sid, online }: { sid: number; online: boolean }) {
  const { identity } = useGetIdentity();
  const viewerId = identity?.id == null ? undefined : Number(identity.id);
  const remove = useRemoveUserItem<Pubkey>('pubkeys', sid);
  const { data, isPending, error } = useGetList<Pubkey>('pubkeys', {
    meta: { sid },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'created_at', order: 'DESC' },
  });
  const keys = [...(data ?? [])].sort((a, b) => a.user_name.localeCompare(b.user_name));

  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  return (
    <UserItemTable
      label="SSH keys"
      items={keys}
      isPending={isPending}
      empty={{
        icon: KeyOutlined,
        title: 'No SSH keys yet',
        text: 'Add a public key to let its owner sign in without a password.',
      }}
      testId={(key) => `pubkey-${key.label}`}
      detailHeading="Key"
      detail={(key) => (
        <>
          {key.label}
          <Typography
            variant="caption"
            color="text.secondary"
            component="div"
            sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
          >
            {key.type} {key.fingerprint}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div">
            Added by {adderOf(key, viewerId)}
          </Typography>
        </>
      )}
      actions={(key) => (
        <ConfirmButton
          size="small"
          color="error"
          disabled={!online && key.status !== 'failed'}
          aria-label={`Remove ${key.label}`}
          title={`Remove the key "${key.label}"?`}
          content={`It is taken out of ${key.user_name}'s authorized_keys on the server.`}
          confirmLabel="Remove"
          onConfirm={() => remove(key, `Key "${key.label}" removed.`)}
        >
          Remove
        </ConfirmButton>
      )}
    />
  );
}
