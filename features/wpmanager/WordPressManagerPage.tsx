import { useState } from 'react';
import { Alert, Box, Tab, Tabs } from '@mui/material';
import { Navigate } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { useApp } from '../webapps/pagesApi';
import { GeneralTab } from './GeneralTab';
import { PluginsTab } from './PluginsTab';
import { UsersTab } from './UsersTab';

const TABS = ['General settings', 'Users', 'Plugins'] as const;

/**
 * /wordpress-manager/{serverId}/{webAppId}: a WordPress app's settings, users and plugins,
 * changed through WordPress's own API on the server as the site's user.
 */
export default function WordPressManagerPage() {
  const { app, error } = useApp();
  const [tab, setTab] = useState(0);
  if ((error as { status?: number } | null)?.status === 404) return <Navigate to="/404" replace />;
  if (!app) return null;
  return (
    <>
      <PageHeader title="WordPress manager" description={`${app.name} — ${app.domains[0] ?? ''}`} />
      {app.webapp_type !== 'wordpress' ? (
        <Alert severity="info">
          {app.name} is not a WordPress app: the manager is for apps made by the WordPress
          installer.
        </Alert>
      ) : (
        <>
          <Tabs value={tab} onChange={(_, next: number) => setTab(next)} sx={{ mb: 2 }}>
            {TABS.map((label) => (
              <Tab key={label} label={label} />
            ))}
          </Tabs>
          <Box role="tabpanel">
            {tab === 0 ? <GeneralTab /> : null}
            {tab === 1 ? <UsersTab /> : null}
            {tab === 2 ? <PluginsTab /> : null}
          </Box>
        </>
      )}
    </>
  );
}
