import { useState } from 'react';
import { Alert, Box, FormControlLabel, Radio, RadioGroup } from '@mui/material';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { PageHeader } from '../../src/generic/PageHeader';
import { CreateSysuserCard } from '../sysusers/pagesApi';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import { Slot } from '../../src/shell/slots';
import { appPaths } from './links';
import { STACK_HELP, STACK_LABELS, WEBAPP_TYPE_LABELS } from './names';
import { webstacks } from './resource';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /** After "PHP versions offered are those installed" (features/easyphp: where to add one). */
    'app.php-versions': { sid: number };
  }
}

type RunAs = 'existing' | 'new';

/** The form's inputs once a new system user is made: the app runs as that one. */
const WITHOUT_USER = ['name', 'domains', 'webapp_type', 'stack_type', 'php_version', 'web_root'];
const CHOICE_LABELS = { stack_type: STACK_LABELS, webapp_type: WEBAPP_TYPE_LABELS };
const DESCRIBE = { stack_type: (value: string) => STACK_HELP[value as keyof typeof STACK_HELP] };

/** Which system user the app runs as: one the server has, or a new one made here first. */
function RunAsChoice({
  value,
  onChange,
  disabled,
}: {
  value: RunAs;
  onChange: (value: RunAs) => void;
  disabled: boolean;
}) {
  return (
    <RadioGroup
      row
      aria-label="System user of the app"
      value={value}
      onChange={(event) => onChange(event.target.value as RunAs)}
      sx={{ mb: 2 }}
    >
      <FormControlLabel
        value="existing"
        control={<Radio />}
        label="An existing system user"
        disabled={disabled}
      />
      <FormControlLabel
        value="new"
        control={<Radio />}
        label="A new system user"
        disabled={disabled}
      />
    </RadioGroup>
  );
}

/**
 * /create-web-app/{id}: a new app from the declaration's form, then its summary. It runs as
 * an existing system user or a new one made first on the same page (the sysusers API, its
 * checks and password generator); its PHP version is one the server has installed, with the
 * way to EasyPHP to install another.
 */
export default function CreateWebAppPage() {
  const { sid, server, online } = useServerPage();
  const [runAs, setRunAs] = useState<RunAs>('existing');
  const [newUser, setNewUser] = useState<string | null>(null);
  const title = 'Create a web app';
  const description = `A web app on ${shownName(server).name}, served by nginx with its own PHP-FPM pool.`;
  const choice = <RunAsChoice value={runAs} onChange={setRunAs} disabled={newUser !== null} />;
  if (runAs === 'new' && !newUser)
    return (
      <Box>
        <PageHeader title={title} description={description} />
        {choice}
        <CreateSysuserCard sid={sid} online={online} onCreated={setNewUser} />
      </Box>
    );
  return (
    <GenericCreate
      resource={webstacks}
      title={title}
      description={description}
      before={
        <>
          {choice}
          {newUser ? (
            <Alert severity="success" sx={{ mb: 2 }}>
              The system user {newUser} was created; the app runs as {newUser}. Keep its password:
              it is not shown again.
            </Alert>
          ) : null}
          <Alert severity="info" sx={{ mb: 2 }}>
            PHP versions offered are those installed on {shownName(server).name}.
            <Slot id="app.php-versions" props={{ sid }} />
          </Alert>
        </>
      }
      noun="The web app"
      meta={{ sid }}
      only={newUser ? WITHOUT_USER : undefined}
      transform={newUser ? (data) => ({ ...data, sys_user: newUser }) : undefined}
      choiceLabels={CHOICE_LABELS}
      describe={DESCRIBE}
      saveLabel="Create web app"
      cancelTo={appPaths.list(sid)}
      redirectTo={(app) => appPaths.summary(sid, app.id)}
      failedTo={appPaths.list(sid)}
    />
  );
}
