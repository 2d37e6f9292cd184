import { useState } from 'react';
import { Button, Stack, Typography } from '@mui/material';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import { useLogout } from 'ra-core';
import type { User } from '../../../resources/user-profile';
import { SectionCard } from '../../generic/SectionCard';
import { useStackdeckData } from '../../hooks';
import { ActingNotice } from './ActingNotice';
import { ReauthDialog } from './ReauthDialog';

interface Props {
  user: User;
  acting: boolean;
}

/** Deleting the account: asks for the password (and the second factor), then signs out. */
export function DeleteAccountCard({ user, acting }: Props) {
  const dataProvider = useStackdeckData();
  const logout = useLogout();
  const [asking, setAsking] = useState(false);
  return (
    <SectionCard
      id="delete-account"
      title="Delete account"
      subtitle="Removes your account and everything in it from this panel. It cannot be undone."
      icon={DeleteForeverOutlined}
    >
      {acting ? <ActingNotice only="delete the account" /> : null}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          You are signed out everywhere at once, and every API key stops working.
        </Typography>
        <Button variant="outlined" color="error" disabled={acting} onClick={() => setAsking(true)}>
          Delete my account
        </Button>
      </Stack>
      <ReauthDialog
        open={asking}
        user={user}
        title="Delete your account?"
        text="This cannot be undone. Enter your password to confirm."
        submitLabel="Delete account"
        danger
        success="Your account was deleted"
        onClose={() => setAsking(false)}
        onConfirm={async ({ password, otp }) => {
          await dataProvider.action('users', 'delete', {
            body: { password, ...(otp ? { otp } : {}) },
          });
          setAsking(false);
          await logout({}, '/login');
        }}
      />
    </SectionCard>
  );
}
