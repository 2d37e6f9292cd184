import {
  Alert,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList, useNotify } from 'ra-core';
import type { z } from 'zod';
import type { pubkeySchema } from '../../../resources/pubkeys';
import { EmptyState } from '../../generic/EmptyState';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { ConfirmButton } from './ConfirmButton';
import { StatusChip } from './StatusChip';

type Pubkey = z.infer<typeof pubkeySchema>;

/** The keys in the server's authorized_keys files, by system user. */
export function KeyList({ sid, online }: { sid: number; online: boolean }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data, isPending, error } = useGetList<Pubkey>('pubkeys', {
    meta: { sid },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'created_at', order: 'DESC' },
  });
  const keys = [...(data ?? [])].sort((a, b) => a.user_name.localeCompare(b.user_name));

  const remove = async (key: Pubkey) => {
    try {
      await dp.delete('pubkeys', { id: key.id, previousData: key, meta: { sid } });
      notify(`Key "${key.label}" removed.`, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['pubkeys'] });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    }
  };

  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  return (
    <Card variant="outlined">
      {!isPending && keys.length === 0 ? (
        <EmptyState
          icon={KeyOutlined}
          title="No SSH keys yet"
          text="Add a public key to let its owner sign in without a password."
        />
      ) : (
        <Table aria-label="SSH keys">
          <TableHead>
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell>Key</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right" />
            </TableRow>
          </TableHead>
          <TableBody>
            {keys.map((key) => (
              <TableRow key={key.id} data-testid={`pubkey-${key.label}`}>
                <TableCell>
                  <strong>{key.user_name}</strong>
                </TableCell>
                <TableCell>
                  {key.label}
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                  >
                    {key.type} {key.fingerprint}
                  </Typography>
                </TableCell>
                <TableCell>
                  <StatusChip status={key.status} />
                  {key.error ? (
                    <Typography variant="body2" color="error">
                      {key.error}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">
                  <ConfirmButton
                    size="small"
                    color="error"
                    disabled={!online && key.status !== 'failed'}
                    aria-label={`Remove ${key.label}`}
                    title={`Remove the key "${key.label}"?`}
                    content={`It is taken out of ${key.user_name}'s authorized_keys on the server.`}
                    confirmLabel="Remove"
                    onConfirm={() => remove(key)}
                  >
                    Remove
                  </ConfirmButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
