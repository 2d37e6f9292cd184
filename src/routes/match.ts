import { matchRoutes } from 'react-router-dom';
import { routes } from './table';
import type { AccessOf } from './access';
import type { RouteDef } from './types';

export interface RouteMatch {
  route: RouteDef;
  params: Readonly<Record<string, string | undefined>>;
}

const patterns = routes.map((route) => ({ path: route.path, route }));

/** The route table entry for a path, ranked as react-router ranks it (`/register` before `/register/:uuid`). */
export function matchRoute(pathname: string): RouteMatch | null {
  const match = matchRoutes(patterns, pathname)?.at(-1);
  return match ? { route: match.route.route, params: match.params } : null;
}

/** Server and web-app ids of the current route (see RouteDef.path). */
export function routeIds(params: Readonly<Record<string, string | undefined>>) {
  return {
    serverId: params.serverId ?? params.sid ?? params.id,
    webAppId: params.webAppId ?? params.appId,
  };
}

/** The access of the route a path opens, or null when no page exists for it yet. */
export const routeAccessOf: AccessOf = (path) =>
  matchRoute(path.split(/[?#]/)[0]!)?.route.access ?? null;
