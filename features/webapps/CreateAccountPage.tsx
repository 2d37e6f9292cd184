import { useState } from 'react';
import { Alert } from '@mui/material';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { CreateSysuserCard } from '../sysusers/pagesApi';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { appPaths } from './links';
import { webstacks } from './resource';

/**
 * /create-account/{id}: a new account on the server — a system user of its own (name checked,
 * password generated and shown once), then its first web app, which runs as that user.
 */
export default function CreateAccountPage() {
  const { sid, online } = useServerPage();
  const [user, setUser] = useState<string | null>(null);
  if (!user) return <CreateSysuserCard sid={sid} online={online} onCreated={setUser} />;
  return (
    <GenericCreate
      resource={webstacks}
      title={`The first web app of ${user}`}
      description="It runs as the new system user; only that user can read its files."
      before={
        <Alert severity="success" sx={{ mb: 2 }}>
          The system user {user} was created. Keep its password: it is not shown again.
        </Alert>
      }
      noun="The web app"
      meta={{ sid }}
      only={['name', 'domains', 'webapp_type', 'stack_type', 'php_version', 'web_root']}
      transform={(data) => ({ ...data, sys_user: user })}
      saveLabel="Create web app"
      cancelTo={appPaths.list(sid)}
      redirectTo={(app) => appPaths.summary(sid, app.id)}
      failedTo={appPaths.list(sid)}
    />
  );
}
