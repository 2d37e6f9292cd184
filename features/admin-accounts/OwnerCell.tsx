import { Box, Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';

/** The owner of a server: their name over their sign-in address. */
export function OwnerCell({ record }: { record: RaRecord }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap>
        {String(record.owner_name)}
      </Typography>
      <Typography variant="caption" color="text.secondary" noWrap component="p">
        {String(record.owner_email)}
      </Typography>
    </Box>
  );
}
