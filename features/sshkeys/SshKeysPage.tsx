import { Box, Grid, Stack } from '@mui/material';
import { PageHeader } from '../../src/generic/PageHeader';
import { AddKeyCard } from './AddKeyCard';
import { KeyList } from './KeyList';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { SshSettingsCard } from './SshSettingsCard';

/** /ssh-keys/{id}: public keys per system user, and sshd's settings. */
export default function SshKeysPage() {
  const { sid, online } = useServerPage();
  return (
    <Box>
      <PageHeader
        title="SSH keys"
        description="Who may sign in over SSH, and how the SSH server accepts them."
      />
      <OfflineNotice what="Adding and removing keys and SSH settings" />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <KeyList sid={sid} online={online} />
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={3}>
            <AddKeyCard sid={sid} online={online} />
            <SshSettingsCard sid={sid} online={online} />
          </Stack>
        </Grid>
      </Grid>
    </Box>
  );
}
