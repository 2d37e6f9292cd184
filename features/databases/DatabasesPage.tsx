import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths } from './links';
import { databases } from './resource';

/** /database-list/{id}: the server's MariaDB databases. */
export default function DatabasesPage() {
  const { sid, server } = useServerPage();
  return (
    <GenericList
      resource={databases}
      title="Databases"
      description={`MariaDB databases on ${shownName(server).name}.`}
      meta={{ sid }}
      actions={
        <Stack direction="row" spacing={1}>
          <Button component={Link} to={dbPaths.users(sid)} variant="outlined">
            Database users
          </Button>
          <Button component={Link} to={dbPaths.create(sid)} variant="contained" startIcon={<Add />}>
            Add database
          </Button>
        </Stack>
      }
    />
  );
}
