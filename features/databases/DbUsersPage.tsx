import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths } from './links';
import { dbusers } from './resource';

/** /database-users/{id}: the server's MariaDB users and the databases each may use. */
export default function DbUsersPage() {
  const { sid, server } = useServerPage();
  return (
    <GenericList
      resource={dbusers}
      title="Database users"
      description={`MariaDB users on ${shownName(server).name}.`}
      meta={{ sid }}
      actions={
        <Stack direction="row" spacing={1}>
          <Button component={Link} to={dbPaths.list(sid)} variant="outlined">
            Databases
          </Button>
          <Button
            component={Link}
            to={dbPaths.createUser(sid)}
            variant="contained"
            startIcon={<Add />}
          >
            Add user
          </Button>
        </Stack>
      }
    />
  );
}
