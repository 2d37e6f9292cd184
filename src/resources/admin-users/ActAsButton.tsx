import { useState } from 'react';
import { Button } from '@mui/material';
import SwitchAccountOutlined from '@mui/icons-material/SwitchAccountOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { type RaRecord, useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { useStackdeckAuth } from '../../hooks';
import { errorMessage } from '../../generic/serverErrors';

/**
 * Continue as this user (spec section 4). The cache is dropped so no page shows the admin's
 * own data under the user's name; the shell's banner offers the way back.
 */
export function ActAsButton({ record }: { record: RaRecord }) {
  const auth = useStackdeckAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  const actAs = async () => {
    setBusy(true);
    try {
      // Leave the admin's page in the same tick as the switch (see actAs).
      await auth.actAs(Number(record.id), () => {
        navigate('/dashboard');
        queryClient.clear();
      });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
      setBusy(false);
    }
  };

  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<SwitchAccountOutlined />}
      disabled={busy}
      sx={{ whiteSpace: 'nowrap' }}
      onClick={(event) => {
        event.stopPropagation();
        void actAs();
      }}
      aria-label={`Act as ${String(record.email)}`}
    >
      Act as
    </Button>
  );
}
