import { Box, Button, Card, Stack, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import CloudOutlined from '@mui/icons-material/CloudOutlined';
import { Link, Navigate } from 'react-router-dom';
import { EmptyState } from '../../generic/EmptyState';
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
        <Stack component="ol" spacing={1.5} sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {STEPS.map((step, index) => (
            <Stack
              component="li"
              key={step}
              direction="row"
              spacing={1.5}
              sx={{ alignItems: 'baseline' }}
            >
              <Typography
                component="span"
                variant="caption"
                sx={{
                  width: 24,
                  height: 24,
                  borderRadius: '50%',
                  bgcolor: 'action.selected',
                  display: 'inline-grid',
                  placeItems: 'center',
                  fontWeight: 600,
                  flexShrink: 0,
                }}
              >
                {index + 1}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {step}
              </Typography>
            </Stack>
          ))}
        </Stack>
      </Box>
    </Card>
  );
}
