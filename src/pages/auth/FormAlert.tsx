import { Suspense, lazy } from 'react';

// MUI's Alert (and its icons) arrives with the first message, not with /login.
const Alert = lazy(() => import('@mui/material/Alert'));

/** The form's message for what no single input shows (wrong password, rate limit...). */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Suspense fallback={<div role="alert">{message}</div>}>
      <Alert severity="error" role="alert" sx={{ mb: 1 }}>
        {message}
      </Alert>
    </Suspense>
  );
}
