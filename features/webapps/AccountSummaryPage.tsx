import { useState } from 'react';
import { Alert, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import Autorenew from '@mui/icons-material/Autorenew';
import { type RaRecord, useGetList, useGetOne, useNotify, useRefresh } from 'ra-core';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { ConfirmDeleteButton } from '../../src/generic/ConfirmDeleteButton';
import { PageHeader } from '../../src/generic/PageHeader';
import { StatusCell } from '../../src/generic/StatusCell';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { Slot } from '../../src/shell/slots';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { appPaths } from './links';
import { STACK_LABELS, WEBAPP_TYPE_LABELS } from './names';
import type { Webapp } from './schemas';

declare module '../../src/shell/slots' {
  interface PageSlots {
    /** Beside an app's Rebuild on its summary (features/clone: Clone). */
    'app.actions': { sid: number; appId: number; name: string; disabled: boolean };
    /** In the app's delete dialog: what goes with it (features/mail: its mailboxes). */
    'app.delete.details': { sid: number; appId: number };
  }
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ py: 0.75 }}>
      <Typography sx={{ width: 160, flexShrink: 0 }} color="text.secondary">
        {label}
      </Typography>
      <Typography component="div">{children}</Typography>
    </Stack>
  );
}

/**
 * /account-summary/{serverId}/{webAppId}: what the app is and where it stands on its server,
 * with its rebuild and its deletion (which names the child apps that go with it).
 */
export default function AccountSummaryPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const navigate = useNavigate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dp = useStackdeckData();
  const [rebuilding, setRebuilding] = useState(false);
  const { data: app, error } = useGetOne<Webapp & RaRecord>(
    'webstacks',
    { id: appId, meta: { sid } },
    { retry: false },
  );
  const { data: children = [] } = useGetList('webstacks', {
    pagination: { page: 1, perPage: 100 },
    filter: { parent_id: appId },
    meta: { sid },
  });
  usePublishWebApp(app);
  if ((error as { status?: number } | null)?.status === 404) return <Navigate to="/404" replace />;
  if (!app) return null;

  const rebuild = async () => {
    setRebuilding(true);
    try {
      await dp.action('webstacks', 'rebuild', { params: { sid, appId } });
      notify(`${app.name} was written again from the panel.`, { type: 'success' });
    } catch (e) {
      notify(errorMessage(e, `${app.name} could not be rebuilt.`), { type: 'error' });
    } finally {
      setRebuilding(false);
      refresh();
    }
  };
  const names = children.map((c) => String(c.name));
  return (
    <>
      <PageHeader
        title={app.name}
        description={app.domains[0]}
        actions={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button
              variant="outlined"
              startIcon={<Autorenew />}
              onClick={() => void rebuild()}
              disabled={rebuilding || app.status === 'deleting'}
            >
              {rebuilding ? 'Rebuilding…' : 'Rebuild'}
            </Button>
            <Slot
              id="app.actions"
              props={{ sid, appId, name: app.name, disabled: app.status !== 'active' }}
            />
            <ConfirmDeleteButton
              resource="webstacks"
              record={app}
              what={`web app ${app.name}`}
              meta={{ sid, ...(names.length ? { query: { children: 'true' } } : {}) }}
              consequence={
                names.length
                  ? `Its child apps go with it: ${names.join(', ')}. They stop answering and their vhosts, PHP pools and files are removed. This cannot be undone.`
                  : 'It stops answering; its vhost, PHP pool and files are removed from the server. This cannot be undone.'
              }
              option={{
                label: 'Also delete its databases and database users',
                query: { databases: 'true' },
              }}
              details={<Slot id="app.delete.details" props={{ sid, appId }} />}
              onDeleted={() => navigate(appPaths.list(sid))}
            />
          </Stack>
        }
      />
      {app.status === 'failed' && app.error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          The server refused the last change{app.error_field ? ` (${app.error_field})` : ''}:{' '}
          {app.error}
        </Alert>
      ) : null}
      <Card variant="outlined">
        <CardContent>
          <Row label="Status">
            <StatusCell record={app} />
          </Row>
          <Row label="Domains">
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              {app.domains.map((d, i) => (
                <Chip key={d} label={i === 0 ? `${d} (primary)` : d} size="small" />
              ))}
            </Stack>
          </Row>
          <Row label="Type">
            {WEBAPP_TYPE_LABELS[app.webapp_type as keyof typeof WEBAPP_TYPE_LABELS] ??
              app.webapp_type}
          </Row>
          <Row label="Stack">{STACK_LABELS[app.stack_type]}</Row>
          <Row label="PHP">{app.php_version ? `PHP ${app.php_version}` : 'none (static)'}</Row>
          <Row label="System user">{app.sys_user.user_name}</Row>
          <Row label="Folder">
            <code>{app.path}</code> (served from <code>{app.web_root}</code>)
          </Row>
          {names.length ? <Row label="Child apps">{names.join(', ')}</Row> : null}
        </CardContent>
      </Card>
    </>
  );
}
