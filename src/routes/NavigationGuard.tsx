import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useStackdeckAuth } from '../hooks';
import { LoadingScreen } from '../layouts/LoadingScreen';
import { sessions } from '../providers';
import { decideNavigation } from './guard';
import { matchRoute } from './match';
import { rememberReferrer } from './referrer';

/**
 * Applies decideNavigation (guard.ts) on every navigation: it wraps every route of the
 * table, so no page renders before the guard has allowed it.
 */
export function NavigationGuard() {
  const location = useLocation();
  const auth = useStackdeckAuth();
  const match = useMemo(() => matchRoute(location.pathname), [location.pathname]);
  const session = sessions.get();
  // Staff status lives on the user record, not in the stored session: fetch it only when needed.
  const needsStaff = Boolean(session && !session.isAdmin && match?.route.access === 'staff');
  const { data: role } = useQuery({
    queryKey: ['shell', 'role', session?.token],
    queryFn: async () =>
      ((await auth.getPermissions?.({})) ?? { isStaff: false }) as { isStaff: boolean },
    enabled: needsStaff,
    staleTime: 60_000,
  });

  const decision = decideNavigation({
    pathname: location.pathname,
    route: match?.route ?? null,
    params: match?.params ?? {},
    session: session ? { isAdmin: session.isAdmin, isStaff: role?.isStaff } : null,
    sessionEnded: !session && sessions.ended(),
  });
  const remember = decision.kind === 'redirect' ? decision.remember : undefined;
  useEffect(() => {
    if (remember) rememberReferrer(remember);
  }, [remember]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'wait') return <LoadingScreen />;
  return <Outlet />;
}
