import { Chip, Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';

/** Who did it: the account holder, or an admin acting for them (both ids are kept). */
export function ActorCell({ record }: { record: RaRecord }) {
  if (record.actor_id == null) {
    return (
      <Typography variant="body2" color="text.secondary">
        You
      </Typography>
    );
  }
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<AdminPanelSettingsOutlined />}
      label={`by admin #${String(record.actor_id)}`}
    />
  );
}
