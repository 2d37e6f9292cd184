import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { Link, Navigate } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { appPaths } from './links';
import { useAppCount } from './useAppCount';

/**
 * /no-domains/{id}: no domain is served by the server yet. A domain always comes with a web
 * app (its first one is the app's primary name), so once the server has an app its list of
 * apps, each with its domains, takes over.
 */
export default function NoDomainsPage() {
  const { sid, server } = useServerPage();
  const count = useAppCount(sid);
  if (count !== undefined && count > 0) return <Navigate to={appPaths.list(sid)} replace />;
  return (
    <>
      <PageHeader title="Domains" />
      <EmptyState
        icon={DnsOutlined}
        title="No domains yet"
        text={`${shownName(server).name} serves no domain. Create a web app with its domain; point the domain's A record at the server and the panel checks it for you.`}
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
            <Button component={Link} to="/dns" variant="outlined">
              DNS zones
            </Button>
          </Stack>
        }
      />
    </>
  );
}
