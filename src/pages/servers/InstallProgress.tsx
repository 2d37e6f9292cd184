import {
  Alert,
  AlertTitle,
  Box,
  CircularProgress,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import TimelineOutlined from '@mui/icons-material/TimelineOutlined';
import { SectionCard } from '../../generic/SectionCard';
import { type InstallEvent, installState } from './useInstallEvents';

function StepIcon({ failed, current }: { failed: boolean; current: boolean }) {
  if (failed) return <ErrorOutline color="error" fontSize="small" />;
  if (current) return <CircularProgress size={18} aria-label="In progress" />;
  return <CheckCircle color="success" fontSize="small" />;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString();

/**
 * The install as its events arrive: one step per event with its code, the bar at ten times
 * the last code, a failure said plainly, and the agent's connection as the last step: the
 * panel's code-10 event, or (for an install that ended before the panel added it, or while
 * that event is still on its way) the connection the server's record reports.
 */
export function InstallProgress({
  events,
  connected,
  action,
}: {
  events: readonly InstallEvent[];
  connected: boolean;
  /** Shown under a failure: e.g. the button that starts over. */
  action?: React.ReactNode;
}) {
  const { last, failed, done, percent } = installState(events);
  const complete = connected || done;
  const value = complete ? 100 : percent;
  return (
    <SectionCard id="install-progress" title="Install progress" icon={TimelineOutlined}>
      <LinearProgress
        variant="determinate"
        value={value}
        color={failed ? 'error' : complete ? 'success' : 'primary'}
        aria-label="Install progress"
        sx={{ height: 8, borderRadius: 4, mb: 2 }}
      />
      {failed && last ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          <AlertTitle>The install failed</AlertTitle>
          {last.event}. Fix the cause on the server, then run the install command again.
          {action ? <Box sx={{ mt: 1.5 }}>{action}</Box> : null}
        </Alert>
      ) : null}
      {events.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Waiting for the install command to run on the server…
        </Typography>
      ) : (
        <List dense aria-label="Install steps" disablePadding>
          {events.map((event, index) => {
            const isLast = index === events.length - 1;
            const stepFailed = event.code < 0;
            return (
              <ListItem key={`${index}-${event.created_at}`} disableGutters>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <StepIcon failed={stepFailed} current={isLast && !complete && !stepFailed} />
                </ListItemIcon>
                <ListItemText
                  primary={event.event}
                  secondary={`${time(event.created_at)} · code ${event.code}`}
                  slotProps={{
                    primary: { color: stepFailed ? 'error' : 'text.primary' },
                  }}
                />
              </ListItem>
            );
          })}
          {connected && !done ? (
            <ListItem disableGutters>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <CheckCircle color="success" fontSize="small" />
              </ListItemIcon>
              <ListItemText primary="The agent connected to the panel" />
            </ListItem>
          ) : null}
        </List>
      )}
    </SectionCard>
  );
}
