import { useState } from 'react';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import type { Sysuser } from '../sysusers/api';
import { CopyButton } from '../../src/generic/CopyButton';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';

type DeployKey = { public_key: string | null };

/** The app user's deployment key (`sysusers/{id}?rsa=`), to add to the git host read-only. */
export function DeployKeyCard({ sid, userName }: { sid: number; userName: string }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const key = ['gitdeploy', 'key', sid, userName];
  const user = useQuery({
    queryKey: ['gitdeploy', 'sysuser', sid, userName],
    queryFn: async () => {
      const { data } = await dp.getList<Sysuser & { id: number }>('sysusers', {
        pagination: { page: 1, perPage: 500 },
        sort: { field: 'user_name', order: 'ASC' },
        filter: {},
        meta: { sid },
      });
      return data.find((u) => u.user_name === userName) ?? null;
    },
  });
  const id = user.data?.id;
  const read = useQuery({
    queryKey: key,
    queryFn: async () =>
      (await dp.getOne('sysusers', { id: id!, meta: { sid, query: { rsa: 'get' } } }))
        .data as unknown as DeployKey,
    enabled: id !== undefined,
    retry: false,
  });
  const create = async () => {
    setCreating(true);
    try {
      const made = await dp.getOne('sysusers', {
        id: id!,
        meta: { sid, query: { rsa: 'create' } },
      });
      client.setQueryData(key, made.data as unknown as DeployKey);
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setCreating(false);
    }
  };
  const publicKey = read.data?.public_key;
  return (
    <Paper sx={{ p: 2 }} aria-label="Deployment key">
      <Typography variant="h6" component="h2">
        Deployment key of {userName}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        Add it to the repository as a read-only deploy key: the server clones as {userName}.
      </Typography>
      {read.error ? <Alert severity="error">{errorMessage(read.error)}</Alert> : null}
      {publicKey ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Box
            component="pre"
            data-testid="deploy-key"
            sx={{ m: 0, p: 1, bgcolor: 'action.hover', overflowX: 'auto', flex: 1, fontSize: 12 }}
          >
            {publicKey}
          </Box>
          <CopyButton value={publicKey} label="Copy the deployment key" />
        </Stack>
      ) : read.data ? (
        <Button variant="outlined" onClick={create} disabled={creating}>
          Create the deployment key
        </Button>
      ) : null}
    </Paper>
  );
}
