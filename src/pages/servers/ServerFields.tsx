import ArrowForward from '@mui/icons-material/ArrowForward';
import { Box, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { SaveButton, TextInput } from 'ra-ui-materialui';

/** Name, IPv4 and provider of a server, and the submit button: the create and edit forms. */
export function ServerFields({
  nameHelp,
  submitLabel,
  autoFocus = false,
  children,
}: {
  nameHelp: string;
  submitLabel: string;
  autoFocus?: boolean;
  /** Fields of one form only, above its button. */
  children?: ReactNode;
}) {
  return (
    <>
      <TextInput
        source="name"
        label="Server name"
        helperText={nameHelp}
        fullWidth
        autoFocus={autoFocus}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        <TextInput
          source="ip4"
          label="IP address (optional)"
          helperText="Its public IPv4 address, for your reference."
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 15 } }}
        />
        <TextInput
          source="provider"
          label="Provider (optional)"
          helperText="Where it runs: Hetzner, DigitalOcean, your own rack..."
          fullWidth
          slotProps={{ htmlInput: { maxLength: 64 } }}
        />
      </Stack>
      {children}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
        <SaveButton label={submitLabel} icon={<ArrowForward />} alwaysEnable />
      </Box>
    </>
  );
}
