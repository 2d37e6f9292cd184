import { Chip, Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';

/**
 * Who did it, as written with the line: the user's email, an API key, the panel, or an admin
 * acting for the user (marked). Lines older than the "who" column fall back to the ids.
 */
export function ActorCell({ record }: { record: RaRecord }) {
  const who = typeof record.who === 'string' ? record.who : null;
  if (record.actor_id == null) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {who ?? 'You'}
      </Typography>
    );
  }
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<AdminPanelSettingsOutlined />}
      label={who ?? `by admin #${String(record.actor_id)}`}
    />
  );
}
