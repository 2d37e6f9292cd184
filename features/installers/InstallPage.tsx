import { useState } from 'react';
import { Box } from '@mui/material';
import { Create } from 'ra-ui-materialui';
import type { ResourceDef } from '../../resources/define';
import { GenericForm } from '../../src/generic/GenericForm';
import { PageHeader } from '../../src/generic/PageHeader';
import { useSaveOutcome } from '../../src/generic/saveOutcome';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { appPaths } from '../webapps/api';
import { type App, APP_LABELS } from '../releases/api';
import { InstallProgress } from './InstallProgress';
import { SourceNotice } from './SourceNotice';
import type { InstallAnswer } from './names';

/**
 * An installer's page (/install-wordpress/{id} and the others): the form from the installer's
 * declaration (the new app's fields and the app's own), then, once the server took it, the
 * install's progress and the admin login in place of the form. A refused form keeps what was
 * typed and shows each refusal at its field.
 */
export function InstallPage({
  resource,
  label,
  description,
}: {
  resource: ResourceDef;
  /** The app's name as people know it: "WordPress". */
  label: string;
  description: string;
}) {
  const { sid, server } = useServerPage();
  const [answer, setAnswer] = useState<InstallAnswer | null>(null);
  const outcome = useSaveOutcome({ resource, mode: 'create', noun: `The ${label} install` });
  const app = (Object.keys(APP_LABELS) as App[]).find((a) => APP_LABELS[a] === label);
  return (
    <Box>
      <PageHeader
        title={`Install ${label}`}
        description={`${description} On ${shownName(server).name}.`}
      />
      {app && !answer ? <SourceNotice app={app} /> : null}
      {answer ? (
        <InstallProgress sid={sid} label={label} answer={answer} onRetry={() => setAnswer(null)} />
      ) : (
        <Create
          resource={resource.name}
          title={false}
          actions={false}
          redirect={false}
          mutationOptions={{
            meta: { sid },
            onSuccess: (data: unknown) => setAnswer(data as InstallAnswer),
            onError: outcome.onError,
          }}
        >
          <GenericForm
            resource={resource}
            mode="create"
            meta={{ sid }}
            saveLabel={`Install ${label}`}
            cancelTo={appPaths.list(sid)}
          />
        </Create>
      )}
    </Box>
  );
}
