import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { useDriftCheck } from '../../src/generic/DriftCheck';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { GrantChips } from './GrantChips';
import { dbPaths } from './links';
import { databases } from './resource';

/** /database-list/{id}: the server's MariaDB databases, with the users granted on each. */
export default function DatabasesPage() {
  const { sid, server, online } = useServerPage();
  const name = shownName(server).name;
  const check = useDriftCheck(
    online,
    "Compared with the server's MariaDB: a database the server does not have is marked missing, one that differs from what the panel holds is marked changed. Saving it writes it again.",
  );
  const create = (
    <Button component={Link} to={dbPaths.create(sid)} variant="contained" startIcon={<Add />}>
      Add database
    </Button>
  );
  return (
    <GenericList
      resource={databases}
      title="Databases"
      description={`MariaDB databases on ${name}.`}
      meta={{ sid }}
      filter={check.filter}
      // `sync` is the page's own button, not a filter.
      filterFields={[]}
      before={check.notice}
      render={{ users: (record: RaRecord) => <GrantChips sid={sid} database={record} /> }}
      editLink={(record) => dbPaths.edit(sid, record.id)}
      deletable={{
        what: (record) => `database ${String(record.name)}`,
        consequence: () =>
          'Every table in it is dropped on the server and its users lose their grants on it. This cannot be undone.',
      }}
      empty={{
        title: 'No databases yet',
        text: `A MariaDB database on ${name} for an app, and a user that may use only it.`,
        icon: StorageOutlined,
        action: create,
      }}
      actions={
        <Stack direction="row" spacing={1}>
          {check.button}
          <Button component={Link} to={dbPaths.users(sid)} variant="outlined">
            Database users
          </Button>
          {create}
        </Stack>
      }
    />
  );
}
