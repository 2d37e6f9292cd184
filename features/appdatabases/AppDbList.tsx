import type { ReactNode } from 'react';
import { Button, Stack } from '@mui/material';
import Add from '@mui/icons-material/Add';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import { type RaRecord, useGetOne } from 'ra-core';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { ResourceDef } from '../../resources/define';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericList } from '../../src/generic/GenericList';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';

interface Props {
  resource: ResourceDef;
  /** "database", "database user". */
  noun: string;
  title: string;
  /** The other page of the pair (users from databases and back). */
  other: { label: string; to: (sid: number, app: number) => string };
  render?: Record<string, (record: RaRecord) => ReactNode>;
  here: (sid: number, app: number) => string;
}

/**
 * The app's databases or database users: the generic list of the resource under the app, and
 * with `?new` its generic create form; both from the declaration.
 */
export function AppDbList({ resource, noun, title, other, render, here }: Props) {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const adding = new URLSearchParams(useLocation().search).has('new');
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const meta = { sid, appId };
  const page = here(sid, appId);
  if (adding)
    return (
      <GenericCreate
        resource={resource}
        title={`Add a ${noun}`}
        description={app ? `On ${String(app.name)}'s server, for ${String(app.name)}.` : undefined}
        noun={`The ${noun}`}
        meta={meta}
        saveLabel={`Add ${noun}`}
        cancelTo={page}
        redirectTo={() => page}
        failedTo={page}
      />
    );
  const add = (
    <Button component={Link} to={`${page}?new`} variant="contained" startIcon={<Add />}>
      Add {noun}
    </Button>
  );
  return (
    <GenericList
      resource={resource}
      title={title}
      description={app ? `MariaDB ${noun}s made for ${String(app.name)}.` : undefined}
      meta={meta}
      filterFields={[]}
      render={render}
      empty={{
        title: `No ${noun}s yet`,
        text: `A ${noun} for this app; it is one of the server's too.`,
        icon: StorageOutlined,
        action: add,
      }}
      actions={
        <Stack direction="row" spacing={1}>
          <Button component={Link} to={other.to(sid, appId)} variant="outlined">
            {other.label}
          </Button>
          {add}
        </Stack>
      }
    />
  );
}
