import { Box, Button, Card } from '@mui/material';
import Add from '@mui/icons-material/Add';
import CloudOutlined from '@mui/icons-material/CloudOutlined';
import { Link, Navigate } from 'react-router-dom';
import { EmptyState } from '../../generic/EmptyState';
import { ConnectSteps } from './ConnectSteps';
import { useServers } from './useServers';

const STEPS = [
  'Have a Linux server you can reach as root, at any provider.',
  'Run the one-line install command as root; the agent connects back to this panel.',
  'Create web apps, databases and cron jobs from here.',
];

/** /no-servers: the empty start; as soon as a server exists the entry rule opens /dashboard. */
export default function NoServersPage() {
  const { total, isPending, error } = useServers();
  if (!isPending && !error && (total ?? 0) > 0) return <Navigate to="/dashboard" replace />;

  return (
    <Card variant="outlined" sx={{ maxWidth: 760, mx: 'auto', mt: { xs: 0, md: 4 } }}>
      <EmptyState
        icon={CloudOutlined}
        title="Connect your first server"
        text="Stackdeck manages servers you already have. Connect one and its web apps, databases, cron jobs and firewall are one click away."
        action={
          <Button
            component={Link}
            to="/connect-first-server"
            variant="contained"
            size="large"
            startIcon={<Add />}
            disabled={isPending}
          >
            Connect your first server
          </Button>
        }
      />
      <Box sx={{ px: { xs: 3, sm: 6 }, pb: 5 }}>
        <ConnectSteps steps={STEPS} />
      </Box>
    </Card>
  );
}
