import { GenericCreate } from '../../src/generic/GenericCreate';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths } from './links';
import { databases } from './resource';

/** /mysql/{id}: a new database on the server, from the declaration's form. */
export default function CreateDatabasePage() {
  const { sid, server } = useServerPage();
  return (
    <GenericCreate
      resource={databases}
      title="Add a database"
      description={`A MariaDB database on ${shownName(server).name}.`}
      noun="The database"
      meta={{ sid }}
      saveLabel="Add database"
      cancelTo={dbPaths.list(sid)}
      redirectTo={() => dbPaths.list(sid)}
      failedTo={dbPaths.list(sid)}
    />
  );
}
