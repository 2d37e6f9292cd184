import { GenericCreate } from '../../src/generic/GenericCreate';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths } from './links';
import { dbusers } from './resource';

/** /mysqlold/{id}: a new database user with its password and grants. */
export default function CreateDbUserPage() {
  const { sid, server } = useServerPage();
  return (
    <GenericCreate
      resource={dbusers}
      title="Add a database user"
      description={`A MariaDB user on ${shownName(server).name}, with all privileges on the databases chosen.`}
      noun="The database user"
      meta={{ sid }}
      saveLabel="Add user"
      cancelTo={dbPaths.users(sid)}
      redirectTo={() => dbPaths.users(sid)}
      failedTo={dbPaths.users(sid)}
    />
  );
}
