import type { ReactNode } from 'react';
import { Button, Stack, type SxProps, type Theme } from '@mui/material';

/**
 * One row of a firewall card's form: its fields, then the button that submits them (Enter in
 * a field submits too). The cards differ only in their fields, label and spacing.
 */
export function FormRow({
  onSubmit,
  submitLabel,
  disabled,
  spacing,
  sx,
  children,
}: {
  onSubmit: () => void;
  submitLabel: ReactNode;
  disabled: boolean;
  spacing?: number;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Stack
      component="form"
      direction="row"
      spacing={spacing}
      sx={[{ flexWrap: 'wrap', gap: 1 }, ...(Array.isArray(sx) ? sx : [sx])]}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <Button type="submit" variant="outlined" disabled={disabled}>
        {submitLabel}
      </Button>
    </Stack>
  );
}
