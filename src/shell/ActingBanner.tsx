import SwitchAccount from '@mui/icons-material/SwitchAccount';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'ra-core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useStackdeckAuth } from '../hooks';

/** While an admin acts as another user (spec section 4), say so and offer the way back. */
export function ActingBanner({ name }: { name: string }) {
  const translate = useTranslate();
  const auth = useStackdeckAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const switchBack = async () => {
    setBusy(true);
    try {
      await auth.switchBack();
      // Cached lists belong to the user acted as; the admin must not see them as theirs.
      queryClient.clear();
      navigate('/admin/users');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert
      severity="warning"
      icon={<SwitchAccount />}
      square
      role="status"
      sx={{
        borderRadius: 0,
        alignItems: 'center',
        py: 0.25,
        '& .MuiAlert-message': { fontWeight: 600 },
      }}
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          onClick={switchBack}
          disabled={busy}
        >
          {translate('shell.acting.switchBack')}
        </Button>
      }
    >
      {translate('shell.acting.banner', { name })}
    </Alert>
  );
}
