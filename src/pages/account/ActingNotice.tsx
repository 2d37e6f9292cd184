import { Alert } from '@mui/material';

/**
 * Why a section is locked while an admin acts as the user: the server refuses these calls
 * (password, two-factor, API keys, payouts, team invitations) from anyone but the account
 * holder, so the form does not pretend otherwise. `only`: what only the holder can do.
 */
export function ActingNotice({ only }: { only: string }) {
  return (
    <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
      You are acting as this user. Only the account holder can {only}.
    </Alert>
  );
}
