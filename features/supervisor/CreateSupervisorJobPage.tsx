import { Alert } from '@mui/material';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { svPaths } from './links';
import { svjobs } from './resource';

/** /create-supervisor-job/{id}: a new program on the server, from the declaration's form. */
export default function CreateSupervisorJobPage() {
  const { sid, server, online } = useServerPage();
  const name = shownName(server).name;
  return (
    <GenericCreate
      resource={svjobs}
      title="Add a supervisor job"
      description={`A program ${name} keeps running: started with supervisor, restarted when it exits, stopped with its children.`}
      noun="The supervisor job"
      meta={{ sid }}
      saveLabel="Add supervisor job"
      cancelTo={svPaths.list(sid)}
      redirectTo={() => svPaths.list(sid)}
      failedTo={svPaths.list(sid)}
      before={
        online ? null : (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="offline-saves">
            {name} is offline: the job is kept as pending and started as soon as it reconnects.
          </Alert>
        )
      }
    />
  );
}
