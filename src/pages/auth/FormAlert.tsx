import Alert from '@mui/material/Alert';

/** The form's message for what no single input shows (wrong password, rate limit...). */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 1 }}>
      {message}
    </Alert>
  );
}
