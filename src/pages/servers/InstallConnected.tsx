import { Alert, AlertTitle, Button } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { Link } from 'react-router-dom';
import type { Server } from '../../../resources/servers';
import { shownName } from './serverName';

/** The end of an install: the agent is connected and the server is ready to use. */
export function InstallConnected({ server }: { server: Server }) {
  return (
    <Alert
      severity="success"
      role="status"
      action={
        <Button
          component={Link}
          to={`/server-summary/${server.id}`}
          color="inherit"
          endIcon={<ArrowForward />}
        >
          Open the server
        </Button>
      }
    >
      <AlertTitle>Connected</AlertTitle>
      {shownName(server).name} is connected{server.os_version ? ` (${server.os_version})` : ''}. Its
      agent reports to the panel.
    </Alert>
  );
}
