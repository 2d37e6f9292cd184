import { Chip } from '@mui/material';
import { useServerPage } from './ServerContext';

/** Online or offline, as the live feed says right now. */
export function ConnectionChip() {
  const { online } = useServerPage();
  return online ? (
    <Chip size="small" color="success" label="Online" data-testid="connection-status" />
  ) : (
    <Chip size="small" variant="outlined" label="Offline" data-testid="connection-status" />
  );
}
