import { Box, Grid } from '@mui/material';
import { PageHeader } from '../../src/generic/PageHeader';
import { CreateSysuserCard } from './CreateSysuserCard';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { SysuserList } from './SysuserList';

/** /system-users/{id}: the server's Linux accounts (root is not listed). */
export default function SystemUsersPage() {
  const { sid, online } = useServerPage();
  return (
    <Box>
      <PageHeader
        title="System users"
        description="Linux accounts on this server. Web apps, SSH keys and files belong to one."
      />
      <OfflineNotice what="Creating, changing and deleting users" />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12 }}>
          <SysuserList sid={sid} online={online} />
        </Grid>
        <Grid size={{ xs: 12, md: 8, xl: 6 }}>
          <CreateSysuserCard sid={sid} online={online} />
        </Grid>
      </Grid>
    </Box>
  );
}
