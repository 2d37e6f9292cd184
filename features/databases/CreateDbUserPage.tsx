import { useLocation } from 'react-router-dom';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericEdit } from '../../src/generic/GenericEdit';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { dbPaths, queryId } from './links';
import { dbusers } from './resource';

/** A user keeps its name: the edit changes the password and the databases. */
const EDITED = ['password', 'databases'] as const;

/**
 * /database-user/{id}: a new database user with its password and grants; with `?user=` a new
 * password (when one is typed) and the databases it may use.
 */
export default function CreateDbUserPage() {
  const { sid, server } = useServerPage();
  const user = queryId(useLocation().search, 'user');
  const back = dbPaths.users(sid);
  if (user !== null)
    return (
      <GenericEdit
        key={user}
        resource={dbusers}
        id={user}
        title="Change database user"
        description="Leave the password empty to keep it. The databases chosen are all it may use."
        noun="The database user"
        meta={{ sid }}
        cancelTo={back}
        redirectTo={() => back}
        failedTo={back}
        missingTo={back}
        only={EDITED}
      />
    );
  return (
    <GenericCreate
      resource={dbusers}
      title="Add a database user"
      description={`A MariaDB user on ${shownName(server).name}, with all privileges on the databases chosen.`}
      noun="The database user"
      meta={{ sid }}
      saveLabel="Add user"
      cancelTo={back}
      redirectTo={() => back}
      failedTo={back}
    />
  );
}
