import { Box, Typography, type TypographyProps } from '@mui/material';
import type { ShownName } from './serverName';

/** A server's shown name as a heading, with its `cs-` name under it while it is pending. */
export function ServerTitle({
  title,
  variant = 'h6',
  sx,
}: {
  title: ShownName;
  variant?: TypographyProps['variant'];
  sx?: TypographyProps['sx'];
}) {
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant={variant} component="h2" noWrap sx={sx}>
        {title.name}
      </Typography>
      {title.id ? (
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          noWrap
          sx={{ fontFamily: 'monospace' }}
          data-testid="server-id"
        >
          {title.id}
        </Typography>
      ) : null}
    </Box>
  );
}
