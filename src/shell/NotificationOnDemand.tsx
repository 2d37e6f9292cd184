import { useNotificationContext } from 'ra-core';
import { Suspense, lazy, useEffect, useState } from 'react';

// MUI's snackbar and its transitions arrive with the first notice, not with /login.
const TopNotification = lazy(() => import('./TopNotification'));

/** The notice bar, mounted from the first notice on (it then stays, for its transitions). */
export function NotificationOnDemand() {
  const { notifications } = useNotificationContext();
  const [used, setUsed] = useState(false);
  const pending = notifications.length > 0;
  useEffect(() => {
    if (pending) setUsed(true);
  }, [pending]);
  if (!used && !pending) return null;
  return (
    <Suspense fallback={null}>
      <TopNotification />
    </Suspense>
  );
}
