import { Alert } from '@mui/material';

/**
 * Why a security section is locked while an admin acts as the user: the server refuses these
 * changes from anyone but the account holder, so the form does not pretend otherwise.
 */
export function ActingNotice({ what }: { what: string }) {
  return (
    <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
      You are acting as this user. Only the account holder can change {what}.
    </Alert>
  );
}
