import CssBaseline from '@mui/material/CssBaseline';
import { CoreAdminUI, CustomRoutes, Resource } from 'ra-core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { AdminContext } from 'ra-ui-materialui';
import { BrowserRouter, Navigate, useLocation } from 'react-router-dom';
import { type ResourceRegistry, loadResources } from '../dataProvider';
import { createQueryClient } from '../dataProvider/queryClient';
import { i18nProvider } from './i18n';
import { authProvider, dataProvider, sessions } from './providers';
import { currentAddress } from './routes/oldAddresses';
import { routeElements } from './routes/routeElements';
import { featureSlots } from './routes/slots.gen';
import { AppError } from './shell/AppError';
import { NoticePolicy, SessionNoticeRelay } from './shell/NoticePolicy';
import { NotificationOnDemand } from './shell/NotificationOnDemand';
import { createSessionNotices, withSessionNotices } from './shell/notices';
import { SlotsProvider } from './shell/slots';
import { createShellStore } from './shell/store';
import { theme } from './theme';

/**
 * react-admin's <Admin> in its two halves (AdminContext + CoreAdminUI) so that the first
 * bundle holds only what /login needs: every page and every layout but the plain one load
 * on demand (src/routes, src/layouts).
 */
// Carried into the tab's next document (see createSessionNotices).
const sessionNotices = createSessionNotices(Date.now, window.sessionStorage);
const shellAuthProvider = withSessionNotices(authProvider, sessionNotices);
const store = createShellStore();
// One retry rule for every page: a 4xx answer is final (a missing record shows at once).
const queryClient = createQueryClient();

/** No route matched: the spec's glued spellings (`/payment12`) lead to their page, else /404. */
function NotFoundRedirect() {
  const { pathname } = useLocation();
  return <Navigate to={currentAddress(pathname) ?? '/404'} replace />;
}

/**
 * The resource declarations, once someone is signed in: public pages render without them, so
 * they stay out of the /login bundle however many resources later issues add.
 */
function useSignedInRegistry(): ResourceRegistry | null {
  const signedIn = useSyncExternalStore(sessions.subscribe, () => sessions.get() !== null);
  const [registry, setRegistry] = useState<ResourceRegistry | null>(null);
  useEffect(() => {
    if (!signedIn || registry) return;
    let live = true;
    loadResources().then(
      (loaded) => live && setRegistry(loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [signedIn, registry]);
  return registry;
}

export function App() {
  const registry = useSignedInRegistry();
  return (
    // Real paths (/login, /admin/users), not react-admin's default hash URLs: the panel
    // serves the SPA for every path.
    <BrowserRouter>
      <AdminContext
        dataProvider={dataProvider}
        queryClient={queryClient}
        authProvider={shellAuthProvider}
        i18nProvider={i18nProvider}
        store={store}
        theme={theme}
        darkTheme={null}
      >
        <CssBaseline />
        <SlotsProvider fills={featureSlots}>
          <NoticePolicy>
            <CoreAdminUI
              title="Stackdeck"
              catchAll={NotFoundRedirect}
              error={AppError}
              requireAuth={false}
              disableTelemetry
            >
              <CustomRoutes noLayout>{routeElements()}</CustomRoutes>
              {/* Definitions only, so react-admin's hooks know every resource; pages come from the route table. */}
              {Object.values(registry ?? {}).map((resource) => (
                <Resource
                  key={resource.name}
                  name={resource.name}
                  options={{ label: resource.label }}
                  recordRepresentation={resource.ui?.recordRepresentation}
                />
              ))}
            </CoreAdminUI>
            <SessionNoticeRelay notices={sessionNotices} />
            <NotificationOnDemand />
          </NoticePolicy>
        </SlotsProvider>
      </AdminContext>
    </BrowserRouter>
  );
}
