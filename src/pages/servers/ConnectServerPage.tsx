import { Box, Card, CardContent, Typography } from '@mui/material';
import { PageHeader } from '../../generic/PageHeader';
import { ConnectServerForm } from './ConnectServerForm';
import { ConnectSteps } from './ConnectSteps';

const STEPS = [
  'Name the server here. The panel makes its record and a one-line install command.',
  'Run the command as root on the server (Debian or Ubuntu). It installs the Stackdeck agent.',
  'The agent connects back to this panel; the server then shows as connected.',
];

/** /connect-server: add another server to the account. */
export default function ConnectServerPage() {
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto' }}>
      <PageHeader
        title="Connect a server"
        description="Any Linux server you can reach as root, at any provider."
      />
      <Card variant="outlined">
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <ConnectServerForm submitLabel="Create and show the install command" />
        </CardContent>
      </Card>
      <Box sx={{ mt: 3 }}>
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
          How it works
        </Typography>
        <ConnectSteps steps={STEPS} />
      </Box>
    </Box>
  );
}
