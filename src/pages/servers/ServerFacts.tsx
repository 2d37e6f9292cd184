import { Box, Typography } from '@mui/material';
import type { Server } from '../../../resources/servers';

function Fact({
  label,
  value,
  mono,
  testId,
}: {
  label: string;
  value: string | null;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      {/* Long values (an OS name, an IPv6 address) wrap rather than being cut. */}
      <Typography
        variant="body2"
        data-testid={testId}
        sx={{ overflowWrap: 'anywhere', ...(mono ? { fontFamily: 'monospace' } : {}) }}
        color={value ? 'text.primary' : 'text.disabled'}
      >
        {value || '—'}
      </Typography>
    </Box>
  );
}

/** IP, provider, OS and time zone of a server, two to a row. */
export function ServerFacts({ server }: { server: Server }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
      <Fact label="IP address" value={server.ip4} mono />
      <Fact label="Provider" value={server.provider} />
      <Fact label="Operating system" value={server.os_version} testId="card-os" />
      <Fact label="Time zone" value={server.timezone} />
    </Box>
  );
}
