import { Button, Chip, Stack, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import PersonOutline from '@mui/icons-material/PersonOutline';
import { type RaRecord, useGetList } from 'ra-core';
import { Link } from 'react-router-dom';
import { useDriftCheck } from '../../src/generic/DriftCheck';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { Slot } from '../../src/shell/slots';
import { dbPaths } from './links';
import { dbusers } from './resource';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /** On each row of a server's database users (features/phpmyadmin: open phpMyAdmin as it). */
    'dbuser.actions': { sid: number; user: RaRecord; disabled: boolean };
  }
}

/** The names of the databases a user may use (the record holds their ids). */
function DatabaseNames({ sid, ids }: { sid: number; ids: readonly number[] }) {
  const { data } = useGetList('databases', {
    pagination: { page: 1, perPage: 500 },
    meta: { sid },
  });
  if (ids.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        None
      </Typography>
    );
  const names = new Map((data ?? []).map((db) => [db.id, String(db.name)]));
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {ids.map((id) => (
        <Chip key={id} size="small" label={names.get(id) ?? `#${id}`} />
      ))}
    </Stack>
  );
}

/** /database-users/{id}: the server's MariaDB users and the databases each may use. */
export default function DbUsersPage() {
  const { sid, server, online } = useServerPage();
  const name = shownName(server).name;
  const check = useDriftCheck(
    online,
    "Compared with the server's MariaDB: a user the server does not have is marked missing, one that differs from what the panel holds is marked changed. Saving it writes it again.",
  );
  const create = (
    <Button component={Link} to={dbPaths.createUser(sid)} variant="contained" startIcon={<Add />}>
      Add user
    </Button>
  );
  return (
    <GenericList
      resource={dbusers}
      title="Database users"
      description={`MariaDB users on ${name}.`}
      meta={{ sid }}
      filter={check.filter}
      // `sync` is the page's own button, not a filter.
      filterFields={[]}
      before={check.notice}
      render={{
        databases: (record: RaRecord) => (
          <DatabaseNames sid={sid} ids={(record.databases ?? []) as number[]} />
        ),
      }}
      rowActions={(record) => (
        <Slot id="dbuser.actions" props={{ sid, user: record, disabled: !online }} />
      )}
      editLink={(record) => dbPaths.editUser(sid, record.id)}
      deletable={{
        what: (record) => `database user ${String(record.name)}`,
        consequence: () =>
          'The user is dropped from MariaDB: apps that sign in with it stop working. Its databases stay.',
      }}
      empty={{
        title: 'No database users yet',
        text: `A MariaDB user on ${name} that may use the databases you choose, and nothing else.`,
        icon: PersonOutline,
        action: create,
      }}
      actions={
        <Stack direction="row" spacing={1}>
          {check.button}
          <Button component={Link} to={dbPaths.list(sid)} variant="outlined">
            Databases
          </Button>
          {create}
        </Stack>
      }
    />
  );
}
