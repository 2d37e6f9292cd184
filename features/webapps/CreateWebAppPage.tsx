import { GenericCreate } from '../../src/generic/GenericCreate';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { appPaths } from './links';
import { webstacks } from './resource';

/** /create-web-app/{id}: a new app from the declaration's form; then its account summary. */
export default function CreateWebAppPage() {
  const { sid, server } = useServerPage();
  return (
    <GenericCreate
      resource={webstacks}
      title="Create a web app"
      description={`A web app on ${shownName(server).name}, served by nginx with its own PHP-FPM pool.`}
      noun="The web app"
      meta={{ sid }}
      saveLabel="Create web app"
      cancelTo={appPaths.list(sid)}
      redirectTo={(app) => appPaths.summary(sid, app.id)}
      failedTo={appPaths.list(sid)}
    />
  );
}
