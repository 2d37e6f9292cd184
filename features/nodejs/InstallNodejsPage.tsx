import { useMemo, useState } from 'react';
import { Box, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup } from '@mui/material';
import { Create } from 'ra-ui-materialui';
import type { ResourceDef } from '../../resources/define';
import { GenericForm } from '../../src/generic/GenericForm';
import { PageHeader } from '../../src/generic/PageHeader';
import { useSaveOutcome } from '../../src/generic/saveOutcome';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { InstallProgress } from '../installers/pagesApi';
import type { InstallAnswer } from '../installers/api';
import { appPaths } from '../webapps/api';
import { ArchivePicker, type PickedArchive } from './ArchivePicker';
import { gitBranch, gitUrl } from './names';
import { nodejsInstallBase, nodejsInstaller } from './resource';

type Source = 'git' | 'archive';

/**
 * The form's declaration for each source: git asks the repository and its branch (required
 * here, so the form says so before sending), an upload asks neither: its file is picked above
 * the form and joins the body when it is sent.
 */
function resourceFor(source: Source): ResourceDef {
  const fields = nodejsInstaller.ui!.formFields!;
  return {
    ...nodejsInstaller,
    input:
      source === 'git'
        ? nodejsInstallBase.extend({ git_url: gitUrl, branch: gitBranch.optional() })
        : nodejsInstallBase,
    ui: {
      ...nodejsInstaller.ui,
      formFields:
        source === 'git' ? fields : fields.filter((f) => f !== 'git_url' && f !== 'branch'),
    },
  } as ResourceDef;
}

/** /install-nodejs/{id}: a Node.js app from git or an uploaded archive, on a new web app. */
export default function InstallNodejsPage() {
  const { sid, server } = useServerPage();
  const [answer, setAnswer] = useState<InstallAnswer | null>(null);
  const [source, setSource] = useState<Source>('git');
  const [archive, setArchive] = useState<PickedArchive | null>(null);
  const resource = useMemo(() => resourceFor(source), [source]);
  const outcome = useSaveOutcome({ resource, mode: 'create', noun: 'The Node.js install' });
  return (
    <Box>
      <PageHeader
        title="Install Node.js"
        description={`A new web app whose code comes from a git repository or an archive you upload, run by supervisor on a port of its own behind nginx, and restarted when it stops. On ${shownName(server).name}.`}
      />
      {answer ? (
        <InstallProgress
          sid={sid}
          label="Node.js"
          answer={answer}
          onRetry={() => setAnswer(null)}
        />
      ) : (
        <>
          <FormControl sx={{ mb: 1 }}>
            <FormLabel id="node-source">Where the code comes from</FormLabel>
            <RadioGroup
              row
              aria-labelledby="node-source"
              value={source}
              onChange={(e) => setSource(e.target.value as Source)}
            >
              <FormControlLabel value="git" control={<Radio />} label="From git" />
              <FormControlLabel value="archive" control={<Radio />} label="Upload an archive" />
            </RadioGroup>
          </FormControl>
          {source === 'archive' ? <ArchivePicker picked={archive} onPick={setArchive} /> : null}
          {source === 'git' || archive ? (
            <Create
              key={source}
              resource={nodejsInstaller.name}
              title={false}
              actions={false}
              redirect={false}
              transform={(data: Record<string, unknown>) =>
                source === 'archive' && archive
                  ? { ...data, archive: { file_name: archive.file_name, data: archive.data } }
                  : data
              }
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
                saveLabel="Install Node.js"
                cancelTo={appPaths.list(sid)}
              />
            </Create>
          ) : null}
        </>
      )}
    </Box>
  );
}
