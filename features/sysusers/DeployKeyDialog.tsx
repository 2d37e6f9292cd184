import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { useState } from 'react';
import type { Sysuser } from './resource';
import { CopyButton } from '../../src/generic/CopyButton';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';

interface Props {
  sid: number;
  user: Sysuser | null;
  online: boolean;
  onClose: () => void;
}

type DeployKey = { public_key: string | null };

/** The user's deployment key (for git hosts): read, or made when there is none. */
export function DeployKeyDialog({ sid, user, online, onClose }: Props) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const key = ['sysusers', 'deployKey', sid, user?.id];
  const { data, error, isPending } = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await dp.getOne('sysusers', {
          id: user!.id,
          meta: { sid, query: { rsa: 'get' } },
        })
      ).data as unknown as DeployKey,
    enabled: user !== null && online,
    retry: false,
  });
  const create = async () => {
    if (!user) return;
    setCreating(true);
    try {
      const made = await dp.getOne('sysusers', {
        id: user.id,
        meta: { sid, query: { rsa: 'create' } },
      });
      queryClient.setQueryData(key, made.data as unknown as DeployKey);
      notify('Deployment key created.', { type: 'success' });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Dialog open={user !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Deployment key of {user?.user_name}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          Add this public key to your git host (as a deploy key) so the server can pull your
          repositories as {user?.user_name}.
        </Typography>
        {!online ? <Alert severity="warning">The server is offline.</Alert> : null}
        {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
        {online && isPending ? <CircularProgress size={24} aria-label="Reading the key" /> : null}
        {data?.public_key ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Box
              component="pre"
              data-testid="deploy-key"
              sx={{
                m: 0,
                p: 1.5,
                flex: 1,
                bgcolor: 'action.hover',
                borderRadius: 1,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
                fontSize: 12,
              }}
            >
              {data.public_key}
            </Box>
            <CopyButton value={data.public_key} label="Copy the deployment key" />
          </Stack>
        ) : null}
        {data && !data.public_key ? (
          <Typography variant="body2">This user has no deployment key yet.</Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        {data && !data.public_key ? (
          <Button variant="contained" onClick={() => void create()} disabled={creating || !online}>
            {creating ? 'Creating…' : 'Create key'}
          </Button>
        ) : null}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
