import { Box, Card, CardContent, Typography } from '@mui/material';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import { ConnectServerForm } from './ConnectServerForm';
import { ConnectSteps } from './ConnectSteps';

const STEPS = [
  'Give your server a name you will recognise. IP address and provider are optional.',
  'We show you one command. Paste it into a root shell on the server; it takes about a minute.',
  'Watch the install here. As soon as the agent connects, your server is ready to use.',
];

/** /connect-first-server: the same flow as /connect-server, for someone who has no server yet. */
export default function ConnectFirstServerPage() {
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <Box sx={{ textAlign: 'center', mb: 3 }}>
        <RocketLaunchOutlined color="primary" sx={{ fontSize: 40 }} />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mt: 1 }}>
          Let&apos;s connect your first server
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Stackdeck manages a server you already have: a fresh Debian or Ubuntu machine at any
          provider is perfect.
        </Typography>
      </Box>
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <ConnectSteps steps={STEPS} />
          <Box sx={{ mt: 3 }}>
            <ConnectServerForm submitLabel="Continue" />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
