import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import { Link, Navigate } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { Slot } from '../../src/shell/slots';
import { appPaths } from './links';
import { useAppCount } from './useAppCount';

/** /no-webapplications/{id}: the server has no web app yet; with one, the list takes over. */
export default function NoWebAppsPage() {
  const { sid, server } = useServerPage();
  const count = useAppCount(sid);
  if (count !== undefined && count > 0) return <Navigate to={appPaths.list(sid)} replace />;
  return (
    <>
      <PageHeader title="Web apps" />
      <EmptyState
        icon={LanguageOutlined}
        title="No web apps yet"
        text={`A web app on ${shownName(server).name}: its domains, a PHP version and a system user that alone can read its files.`}
        action={
          <Stack direction="row" spacing={1}>
            <Button
              component={Link}
              to={appPaths.create(sid)}
              variant="contained"
              startIcon={<Add />}
            >
              Create web app
            </Button>
            <Button component={Link} to={appPaths.account(sid)} variant="outlined">
              New system user and web app
            </Button>
            <Slot id="server.apps.actions" props={{ sid }} />
          </Stack>
        }
      />
    </>
  );
}
