import { Alert, AlertTitle, Box, Stack, Typography } from '@mui/material';
import { CopyButton } from '../../generic/CopyButton';
import type { CreatedPassword } from './useServerOpening';

/** The passwords made on the server's first opening: shown once, with copy buttons. */
export function OpeningPasswords({
  created,
  onDismiss,
}: {
  created: CreatedPassword[];
  onDismiss: () => void;
}) {
  if (!created.length) return null;
  return (
    <Alert
      severity="warning"
      onClose={onDismiss}
      sx={{ mb: 3 }}
      role="region"
      aria-label="New system user passwords"
      slotProps={{ closeButton: { title: 'I saved them' } }}
    >
      <AlertTitle>System users created: save these passwords now</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        They are shown only this once. You can set new ones later on the System users page.
      </Typography>
      <Stack spacing={0.5}>
        {created.map(({ user_name, password }) => (
          <Stack key={user_name} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box component="span" sx={{ fontWeight: 600, minWidth: 90 }}>
              {user_name}
            </Box>
            <Box
              component="code"
              data-testid={`password-${user_name}`}
              sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
            >
              {password}
            </Box>
            <CopyButton value={password} label={`Copy the password of ${user_name}`} />
          </Stack>
        ))}
      </Stack>
    </Alert>
  );
}
