import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import type { Server } from '../../../resources/servers';
import { ServerStatusChip } from './ServerStatusChip';

function Detail({ label, value, mono }: { label: string; value: string | null; mono?: boolean }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        variant="body2"
        noWrap
        sx={mono ? { fontFamily: 'monospace' } : undefined}
        color={value ? 'text.primary' : 'text.disabled'}
      >
        {value || '—'}
      </Typography>
    </Box>
  );
}

/** One server on the dashboard: what it is, where it is, whether the agent is there. */
export function ServerCard({ server }: { server: Server }) {
  return (
    <Card variant="outlined" component="article" aria-label={server.name} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
          <Box
            sx={{
              width: 40,
              height: 40,
              borderRadius: 1.5,
              bgcolor: 'primary.main',
              color: 'primary.contrastText',
              display: 'grid',
              placeItems: 'center',
              flexShrink: 0,
            }}
          >
            <DnsOutlined fontSize="small" />
          </Box>
          <Typography variant="subtitle1" component="h2" noWrap sx={{ fontWeight: 600, flex: 1 }}>
            {server.name}
          </Typography>
          <ServerStatusChip server={server} />
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
          <Detail label="IP address" value={server.ip4} mono />
          <Detail label="Provider" value={server.provider} />
          <Detail label="Operating system" value={server.os_version} />
          <Detail label="Time zone" value={server.timezone} />
        </Box>
      </CardContent>
    </Card>
  );
}
