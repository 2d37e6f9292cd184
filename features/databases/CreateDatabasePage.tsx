import { useLocation } from 'react-router-dom';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericEdit } from '../../src/generic/GenericEdit';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths, queryId } from './links';
import { databases } from './resource';

/**
 * /mysql/{id}: a new database on the server, from the declaration's form; with `?db=` the same
 * form renames a database or changes its collation.
 */
export default function CreateDatabasePage() {
  const { sid, server } = useServerPage();
  const db = queryId(useLocation().search, 'db');
  const back = dbPaths.list(sid);
  if (db !== null)
    return (
      <GenericEdit
        key={db}
        resource={databases}
        id={db}
        title="Change database"
        description="A new name moves every table, with its users' grants; views and routines stop a rename."
        noun="The database"
        meta={{ sid }}
        cancelTo={back}
        redirectTo={() => back}
        failedTo={back}
        missingTo={back}
      />
    );
  return (
    <GenericCreate
      resource={databases}
      title="Add a database"
      description={`A MariaDB database on ${shownName(server).name}.`}
      noun="The database"
      meta={{ sid }}
      saveLabel="Add database"
      cancelTo={back}
      redirectTo={() => back}
      failedTo={back}
    />
  );
}
