import { Chip, Stack } from '@mui/material';
import type { RaRecord } from 'ra-core';

/** Admin, staff or user, and whether the account can sign in at all. */
export function RoleCell({ record }: { record: RaRecord }) {
  const role = record.is_admin ? 'Admin' : record.is_admin_staff ? 'Staff' : 'User';
  return (
    <Stack direction="row" spacing={0.5}>
      <Chip
        size="small"
        label={role}
        color={role === 'User' ? 'default' : 'primary'}
        variant={role === 'User' ? 'outlined' : 'filled'}
      />
      {record.disabled ? (
        <Chip size="small" label="Disabled" color="error" variant="outlined" />
      ) : null}
    </Stack>
  );
}
