import { useState } from 'react';
import { Alert, AlertTitle, Button, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import type { Server } from '../../../resources/servers';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { shownName } from './serverName';

/**
 * /dashboard/{uuid} signed in: the link of a transfer mail. Accepting calls
 * `GET transfer?uuid&processed=true`; the server then shows among the user's own.
 */
export function TransferAcceptance({ uuid }: { uuid: string }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const accept = async () => {
    setBusy(true);
    try {
      const server = await dataProvider.action<Server>('servers', 'acceptTransfer', {
        query: { uuid, processed: 'true' },
      });
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
      notify(`${shownName(server).name} is now yours.`, { type: 'success' });
      navigate('/dashboard', { replace: true });
    } catch (error) {
      setFailure(errorMessage(error, 'The transfer could not be accepted.'));
    } finally {
      setBusy(false);
    }
  };

  if (failure) {
    return (
      <Alert
        severity="error"
        sx={{ mb: 3 }}
        onClose={() => navigate('/dashboard', { replace: true })}
      >
        <AlertTitle>Transfer not accepted</AlertTitle>
        {failure}
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ mb: 3 }} role="region" aria-label="Server transfer">
      <AlertTitle>A server is offered to you</AlertTitle>
      Someone offered to transfer a server to your account. Accept it to take it over with its
      agent, web apps and data; decline to leave it with them.
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        <Button variant="contained" size="small" onClick={() => void accept()} disabled={busy}>
          Accept the server
        </Button>
        <Button
          size="small"
          color="inherit"
          onClick={() => navigate('/dashboard', { replace: true })}
        >
          Not now
        </Button>
      </Stack>
    </Alert>
  );
}
