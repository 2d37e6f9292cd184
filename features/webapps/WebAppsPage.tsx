import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import type { RaRecord } from 'ra-core';
import { Link, Navigate } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { Slot } from '../../src/shell/slots';
import { appPaths } from './links';
import { STACK_LABELS } from './names';
import { webstacks } from './resource';
import { useAppCount } from './useAppCount';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /**
     * Beside "Create web app" on a server's app list and its empty state (features/installers:
     * Install an app).
     */
    'server.apps.actions': { sid: number };
  }
}

/**
 * /web-applications/{id}: the server's web apps; with none, the spec's empty page
 * /no-webapplications/{id} takes over.
 */
export default function WebAppsPage() {
  const { sid, server } = useServerPage();
  const count = useAppCount(sid);
  if (count === 0) return <Navigate to={appPaths.none(sid)} replace />;
  return (
    <GenericList
      resource={webstacks}
      title="Web apps"
      description={`Web apps on ${shownName(server).name}, each run by its system user.`}
      meta={{ sid }}
      filterFields={[]}
      render={{
        domains: (app: RaRecord) => (app.domains as string[]).join(', '),
        stack_type: (app: RaRecord) =>
          STACK_LABELS[app.stack_type as keyof typeof STACK_LABELS] ?? String(app.stack_type),
        php_version: (app: RaRecord) => (app.php_version ? `PHP ${String(app.php_version)}` : '—'),
        sys_user: (app: RaRecord) => (app.sys_user as { user_name: string }).user_name,
      }}
      rowLink={(app) => appPaths.summary(sid, app.id)}
      deletable={{
        what: (app) => `web app ${String(app.name)}`,
        consequence: () =>
          'It stops answering; its vhost, PHP pool and files are removed from the server. An app with child apps is deleted from its summary page.',
      }}
      actions={
        <Stack direction="row" spacing={1}>
          <Button component={Link} to={appPaths.account(sid)} variant="outlined">
            New system user and web app
          </Button>
          <Slot id="server.apps.actions" props={{ sid }} />
          <Button
            component={Link}
            to={appPaths.create(sid)}
            variant="contained"
            startIcon={<Add />}
          >
            Create web app
          </Button>
        </Stack>
      }
    />
  );
}
