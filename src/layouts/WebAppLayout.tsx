import { type ReactNode, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { ServerFrame } from '../pages/server/ServerFrame';
import { matchRoute, routeIds } from '../routes/match';
import { ShellFrame } from './ShellFrame';
import { LAYOUT_MENUS } from './layoutMenus';

/**
 * Server-level pages (the spec's web-page layout): the server sidebar with the server id, and
 * the server itself loaded, opened and followed live for the pages (src/pages/server).
 */
export default function WebAppLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { serverId } = useMemo(() => routeIds(matchRoute(pathname)?.params ?? {}), [pathname]);
  return (
    <ShellFrame menu={LAYOUT_MENUS.webApp}>
      <ServerFrame key={serverId} serverId={serverId}>
        {children}
      </ServerFrame>
    </ShellFrame>
  );
}
