import { Button } from '@mui/material';
import Add from '@mui/icons-material/Add';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import { type RaRecord, useGetOne } from 'ra-core';
import { Link, useLocation, useParams } from 'react-router-dom';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericList } from '../../src/generic/GenericList';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { appPaths } from './links';
import { webstacks } from './resource';
import type { Webapp } from './schemas';

/**
 * /sub-domains/{serverId}/{webAppId}: the app's child apps (each its own site on a subdomain,
 * run by the parent's user); `?new` adds one.
 */
export default function SubDomainsPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const adding = new URLSearchParams(useLocation().search).has('new');
  const { data: parent } = useGetOne<Webapp & RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(parent);
  if (!parent) return null;
  const here = appPaths.subdomains(sid, appId);
  if (adding)
    return (
      <GenericCreate
        resource={webstacks}
        title={`Add a sub-domain to ${parent.name}`}
        description={`A web app of its own on a subdomain of ${parent.domains[0]}, run by ${parent.sys_user.user_name}.`}
        noun="The sub-domain"
        meta={{ sid }}
        only={['name', 'domains', 'webapp_type', 'stack_type', 'php_version', 'web_root']}
        transform={(data) => ({
          ...data,
          parent_id: appId,
          sys_user: parent.sys_user.user_name,
        })}
        saveLabel="Add sub-domain"
        cancelTo={here}
        redirectTo={() => here}
        failedTo={here}
      />
    );
  const add = (
    <Button component={Link} to={`${here}?new`} variant="contained" startIcon={<Add />}>
      Add sub-domain
    </Button>
  );
  return (
    <GenericList
      resource={webstacks}
      title="Sub-domains"
      description={`Child apps of ${parent.name}.`}
      meta={{ sid }}
      filter={{ parent_id: appId }}
      filterFields={[]}
      columns={['name', 'domains', 'php_version', 'status']}
      render={{ domains: (app: RaRecord) => (app.domains as string[]).join(', ') }}
      rowLink={(app) => appPaths.summary(sid, app.id)}
      deletable={{ what: (app) => `sub-domain ${String(app.name)}` }}
      empty={{
        title: 'No sub-domains yet',
        text: `A child app answers on a subdomain such as blog.${parent.domains[0]}, with its own folder and PHP pool.`,
        icon: AccountTreeOutlined,
        action: add,
      }}
      actions={add}
    />
  );
}
