import { z } from 'zod';
import {
  type ResourceDef,
  appIn,
  bodyOf,
  childParam,
  declaredRoutes,
  queryIdOf,
  queryOf,
  scopeOf,
  toRoutePattern,
  templateParams,
} from '../../../resources/define';
import { getResource, resources } from '../../../resources';
import { managedKinds } from '../../../server/features';
import type { ManagedKind } from '../../../server/managed/kind';
import { ManagedStore } from '../../../server/managed/store';
import type { TestApp, TestUser } from '../helpers';

/**
 * The authorization matrix's vocabulary, shared by tests/api/matrix.test.ts and the rows of each
 * feature (tests/api/matrix/*.rows.ts, picked up by the test).
 */
export const ROLES = [
  'owner',
  'member',
  'removed',
  'other',
  'staff',
  'admin',
  'anonymous',
  'acting',
] as const;
export type Role = (typeof ROLES)[number];
export type Statuses = Record<Role, number>;

/**
 * `{uid}` must be the caller; admins may name anyone. `member` is a member of a team of the
 * owner's with the fixture server shared, `removed` a former member of that team: on another
 * user's `{uid}` both are strangers (404).
 */
export const SELF: Statuses = {
  owner: 200,
  member: 404,
  removed: 404,
  other: 404,
  staff: 404,
  admin: 200,
  anonymous: 401,
  acting: 200,
};
/** As SELF, and admin staff read it too (they reach Users and Servers). */
export const SELF_STAFF: Statuses = { ...SELF, staff: 200 };
/** Only the account holder: an admin, directly or acting, is refused (password, 2FA, keys). */
export const HOLDER: Statuses = { ...SELF, admin: 403, acting: 403 };
export const USER: Statuses = { ...SELF, member: 200, removed: 200, other: 200, staff: 200 };
export const ADMIN: Statuses = {
  owner: 403,
  member: 403,
  removed: 403,
  other: 403,
  staff: 403,
  admin: 200,
  anonymous: 401,
  acting: 403,
};
export const STAFF: Statuses = { ...ADMIN, staff: 200 };
/**
 * Server routes (`{sid}`): the member calls them on their own `{uid}` with the shared fixture
 * server and passes the tenant check like the owner; the removed member is refused (404) on
 * the very request after their removal.
 */
export const SHARED: Statuses = { ...SELF, member: 200 };
/** As SHARED, for operations only the server's owner may run (the member gets 403). */
export const OWNER_ONLY: Statuses = { ...SELF, member: 403 };
/**
 * Server routes that need the agent: the fixture's server has none, so everyone who passes the
 * guard and the tenant check (the member too, through the team) gets the immediate "server is
 * offline" answer, not a queue.
 */
export const OFFLINE: Statuses = { ...SELF, owner: 409, member: 409, admin: 409, acting: 409 };
export const PUBLIC = (status: number): Statuses =>
  Object.fromEntries(ROLES.map((r) => [r, status])) as Statuses;

export interface Fixture {
  t: TestApp;
  owner: TestUser & { uuid: string };
  /** In the owner's team `teamId`, which shares the fixture server. */
  member: TestUser;
  /** Was in that team and was removed. */
  removed: TestUser;
  teamId: number;
  outboxId: number;
  /** The owner's server (never connected) and rows on it. */
  serverId: number;
  /** A web app on that server: the app of the routes of resources under `app`. */
  appId: number;
  itemId: number;
  /**
   * Another user's server (not shared with anyone here) and, for each resource with children
   * under a server, one child on it: what the derived "foreign child" rows name.
   */
  foreign: {
    serverId: number;
    appId: number;
    children: Record<string, number | string>;
    /** One row of each account resource, of the stranger's account: what "owned" rows name. */
    owned: Record<string, number | string>;
  };
  /** The owner's DNS provider accounts, each with one zone, for the DNS rows. */
  dns: Record<'cloudflare' | 'powerdns', DnsAccount>;
  /** An S3 endpoint (tests/fakes/s3.ts) and a key pair it accepts, for credential rows. */
  s3: { url: string; keyId: string; secret: string };
}

/**
 * A DNS provider account of the fixture's owner (on the local fake of Cloudflare's API, or a
 * PowerDNS on loopback) and a zone of it; `api_url` and `secret` add more accounts there.
 */
export interface DnsAccount {
  label: string;
  api_url: string;
  secret: string;
  /** The panel's id of the zone, and its name. */
  zoneId: number;
  zone: string;
}

export interface Row {
  /** Method and route pattern exactly as registered, e.g. `GET /api/v1/users/:uid`. */
  route: string;
  /** Query string to append (asked again for each role: it may name a fresh child). */
  query?: (f: Fixture) => string | Promise<string>;
  body?: (f: Fixture, role: Role) => unknown | Promise<unknown>;
  expect: Statuses;
  /** Destructive for the caller (logout, account deletion): new owner and tokens for this row. */
  fresh?: boolean;
  /**
   * Destructive for its target (deleting a server, a user, a key): a new one for each role. It
   * fills `:sid` on server records, `:teamId` on team routes, `:uuid`, or else `:id`.
   */
  target?: (f: Fixture) => Promise<number | string>;
  /**
   * Named path parameters (`zoneId` fills `:zoneId`), asked again for each role: a destructive
   * row makes a fresh zone, record or credential per call. They win over the defaults above.
   */
  params?: (f: Fixture, role: Role) => Promise<Record<string, string | number>>;
  /**
   * The member and the removed member name themselves in `{uid}` (default: on server routes,
   * where they reach the owner's shared server through the team; elsewhere the owner's uid).
   */
  ownUid?: boolean;
  /**
   * The query the derived rows of the route's query ids (`loads`) send, each id then set to
   * another tenant's (default: this row's `query`). One that changes nothing: the test that
   * breaks the hook sends it too, and a broken hook would reach the stranger's row.
   */
  idsQuery?: (f: Fixture) => string | Promise<string>;
}

/** Shares one of the owner's servers with the fixture team (a server for a destructive row). */
export async function shareWithTeam(f: Fixture, serverId: number): Promise<number> {
  const repo = f.t.app.services.teams;
  const team = await repo.findOwned(f.owner.id, f.teamId);
  if (!team) throw new Error('fixture team missing');
  await repo.apply(team, {
    invite: [],
    remove: [],
    cancelInvites: [],
    share: [serverId],
    unshare: [],
  });
  return serverId;
}

/** A route that names a child of a server (`{id}` under `{sid}`), from the declarations. */
export interface ChildRoute {
  /** As registered, e.g. `DELETE /api/v1/pubkeys/:id/servers/:sid/users/:uid`. */
  route: string;
  resource: string;
  /** The child parameter, e.g. `id`. */
  param: string;
  /** Under `app`: where the route names its app (`{appId}` or `?wsid=`). */
  app?: 'path' | 'query';
  /** The account holder's alone: an admin, acting or naming the user, is refused (403) first. */
  actingRefused?: boolean;
  /** The server's owner's alone: a team member is refused (403) before the child is loaded. */
  ownerOnly?: boolean;
}

/** A route of a resource under `app`, which names its app in the path or the query. */
export interface AppRoute {
  route: string;
  resource: string;
  app: 'path' | 'query';
  /** The child parameter, when the route also names a child of the app. */
  param?: string;
  /** The account holder's alone: an admin, acting or naming the user, is refused (403) first. */
  actingRefused?: boolean;
  /** The server's owner's alone: a team member is refused (403) before the app is loaded. */
  ownerOnly?: boolean;
}

/**
 * Every route of the resources under `app`. Each gets the derived row "the owner names another
 * tenant's app": 404, and the agent is never asked.
 */
export function appRoutes(): AppRoute[] {
  return Object.values<ResourceDef>(resources)
    .filter((resource) => resource.parent === 'app')
    .flatMap((resource) =>
      declaredRoutes(resource).map(({ method, template, def }) => ({
        route: `${method} /api/v1/${toRoutePattern(template)}`,
        resource: resource.name,
        app: appIn(template, queryOf(def))!,
        param: childParam(template, 'app', resource.params),
        ...(def.forbidWhileActing ? { actingRefused: true } : {}),
        ...(def.ownerOnly ? { ownerOnly: true } : {}),
      })),
    );
}

/**
 * Every child route the declarations make. Each gets the derived row "the owner names a child
 * that belongs to another tenant's server": 404 (403 first for whom the guard refuses anyway),
 * and the agent is never asked. A new child
 * route is covered without a hand-written row.
 */
export function childRoutes(): ChildRoute[] {
  const ofServers = Object.values<ResourceDef>(resources).filter((r) => r.parent !== 'account');
  return ofServers.flatMap((resource) =>
    declaredRoutes(resource).flatMap(({ method, template, def }) => {
      const param = childParam(template, resource.parent, resource.params);
      return param === undefined
        ? []
        : [
            {
              route: `${method} /api/v1/${toRoutePattern(template)}`,
              resource: resource.name,
              param,
              ...(resource.parent === 'app' ? { app: appIn(template, queryOf(def)) } : {}),
              ...(def.forbidWhileActing ? { actingRefused: true } : {}),
              ...(def.ownerOnly ? { ownerOnly: true } : {}),
            },
          ];
    }),
  );
}

/**
 * Every route of an account resource (`parent: 'account'`) that names one of the account's rows
 * (`supportcs/ticket/{id}/users/{uid}`), or the row holding one (`within`: the zone of a DNS
 * record route). Each gets the derived row "the owner names another account's row": 404 for
 * the owner, an admin and an admin acting as the owner (the admins 403 where the route is the
 * account holder's alone). A held child is the stranger's row inside the stranger's holder
 * (its maker makes it in the row the holder's maker made), named under the owner's holder.
 */
export function ownedRoutes(): OwnedRoute[] {
  return Object.values<ResourceDef>(resources)
    .filter((resource) => resource.parent === 'account')
    .flatMap((resource) =>
      declaredRoutes(resource).flatMap(({ method, template, def }) => {
        const route = `${method} /api/v1/${toRoutePattern(template)}`;
        // The account holder's alone: an admin, acting or naming the user, is refused (403)
        // whatever the path names, before any row is loaded.
        const actingRefused = def.forbidWhileActing ?? false;
        const names = templateParams(template);
        const holders = Object.entries(resource.within ?? {}).filter(([p]) => names.includes(p));
        const holder = holders[0] && { param: holders[0][0], resource: holders[0][1] };
        const param = childParam(template, 'account', resource.params, resource.within);
        return [
          ...(param === undefined
            ? []
            : [
                { route, resource: resource.name, param, actingRefused, ...(holder && { holder }) },
              ]),
          ...(holder ? [{ route, ...holder, actingRefused }] : []),
        ];
      }),
    );
}

/** A route that names an account row: its parameter, and the row holding it where there is one. */
export interface OwnedRoute extends ChildRoute {
  actingRefused: boolean;
  /** The parameter and resource of the row that holds it (`within`), when the route names one. */
  holder?: { param: string; resource: string };
}

/** A query value or body field of a route that names a row (`loads`, `bodyLoads`). */
export interface QueryIdRoute {
  route: string;
  /** The query parameter or body field, e.g. `dbuser`. */
  param: string;
  /** Where the route takes it. */
  in: 'query' | 'body';
  /** A body field that takes a list of ids (`databases: [1, 2]`). */
  list: boolean;
  /** The resource whose row it names, e.g. `dbusers`. */
  of: string;
  /** The account holder's alone: an admin, acting or not, is refused (403) before any load. */
  actingRefused: boolean;
  /** What another tenant's row answers: 404, or 400 at the field for a form's choice. */
  refused: 400 | 404;
}

/**
 * Every query id and body id the declarations make. Each gets the derived row "the owner names
 * another tenant's row in the query" (or the body): 404 for the owner, a team member, an admin
 * and an admin acting (400 at the field for a form's choice, as every body id is), and the
 * agent is never asked; and, on the routes whose query changes nothing, a test that swaps the
 * loader for one that ignores the owner and must see the row fail.
 */
export function queryIdRoutes(): QueryIdRoute[] {
  return Object.values<ResourceDef>(resources).flatMap((resource) =>
    declaredRoutes(resource).flatMap(({ op, method, template, def }) => {
      const route = `${method} /api/v1/${toRoutePattern(template)}`;
      const actingRefused = def.forbidWhileActing ?? false;
      const body = bodyOf(resource, op, def);
      const shape = body instanceof z.ZodObject ? body.shape : {};
      return [
        ...Object.entries(def.loads ?? {}).map(([param, declared]) => ({
          route,
          param,
          in: 'query' as const,
          list: false,
          of: queryIdOf(declared).of,
          actingRefused,
          refused: queryIdOf(declared).fieldError ? (400 as const) : (404 as const),
        })),
        ...Object.entries(def.bodyLoads ?? {}).map(([param, declared]) => ({
          route,
          param,
          in: 'body' as const,
          list: isList(shape[param]),
          of: queryIdOf(declared).of,
          actingRefused,
          refused: 400 as const,
        })),
      ];
    }),
  );
}

/** Whether a body field takes a list (under its optional, nullable or default wrapper). */
function isList(field: unknown): boolean {
  let inner = field;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodNullable ||
    inner instanceof z.ZodDefault
  )
    inner = inner.unwrap();
  return inner instanceof z.ZodArray;
}

/** A route of a catalogue of the panel (`scope: 'panel'`) and the guard it declares. */
export interface PanelRoute {
  route: string;
  resource: string;
  guard: 'admin' | 'staff';
}

/**
 * Every route of the panel's catalogues. Each gets the derived row "only admins (and staff
 * where declared)": 403 for every signed-in user who is not, 401 for nobody.
 */
export function panelRoutes(): PanelRoute[] {
  return Object.values<ResourceDef>(resources)
    .filter((resource) => scopeOf(resource) === 'panel')
    .flatMap((resource) =>
      declaredRoutes(resource).map(({ method, template, def }) => ({
        route: `${method} /api/v1/${toRoutePattern(template)}`,
        resource: resource.name,
        guard: def.guard as 'admin' | 'staff',
      })),
    );
}

let unique = 0;

/**
 * The resource's `example` body, with a fresh name each time (the path's own key, as in
 * `svjobs/{name}`, or else a `name` field, unique per server in every kind that has one), so
 * rows never clash and another tenant's never shares a fixture's name.
 */
export function exampleOf(kind: ManagedKind): Record<string, unknown> {
  const example = getResource(kind.resource).example;
  if (!example) throw new Error(`${kind.resource} declares no example`);
  const field = kind.key && kind.key !== 'id' ? kind.key : 'name';
  if (typeof example[field] !== 'string') return { ...example };
  unique += 1;
  return { ...example, [field]: `${example[field] as string}${unique}` };
}

/**
 * A row of a server-managed kind on a server, made from its resource's `example` and active
 * (as if the server had it): its path value.
 */
export async function managedChild(
  t: TestApp,
  kind: ManagedKind,
  serverId: number,
  /** Under `app`: the app it belongs to (a new app of the server when not given). */
  appId?: number,
): Promise<number | string> {
  const example = exampleOf(kind);
  const store = new ManagedStore(t.app.db, kind.table);
  const columns = kind.toColumns?.({ ...example }) ?? { ...example };
  if (getResource(kind.resource).parent === 'app')
    columns.webapp_id = appId ?? (await appOn(t, serverId));
  const row = await store.settle(await store.insert(serverId, columns), {
    status: 'active',
  });
  return (row as unknown as Record<string, number | string>)[kind.key ?? 'id']!;
}

/** A new web app on a server (active, as if the server had it): its id. */
export async function appOn(t: TestApp, serverId: number): Promise<number> {
  const apps = managedKinds.find((k) => k.resource === 'webstacks');
  if (!apps) throw new Error('resources under `app` need the webstacks kind');
  return Number(await managedChild(t, apps, serverId));
}

/**
 * The default rows of every server-managed kind whose resource declares an `example`, for the
 * routes no feature's rows file covers by hand: a new managed resource is in the matrix, and its
 * children in the derived "another tenant's child" rows, without a line written for it.
 */
export function derivedManagedRows(covered: ReadonlySet<string>): Row[] {
  return managedKinds.flatMap((kind) => {
    const resource = getResource(kind.resource);
    if (!resource.example) return [];
    return managedRows(resource, {
      body: () => exampleOf(kind),
      child: (f) => managedChild(f.t, kind, f.serverId, f.appId),
    }).filter((row) => !covered.has(row.route));
  });
}

/** Accepted: the server is offline, the row waits for it (server-managed resources). */
export const QUEUED: Statuses = { ...SHARED, owner: 202, member: 202, admin: 202, acting: 202 };

/**
 * The default rows of a server-managed resource (server/managed/), derived from its
 * declaration: reads are the server's tenants' (SHARED), writes are accepted while the fixture
 * server is offline (QUEUED: the row waits for the sweeper). `body` is a valid create/update
 * body; `target` makes a fresh row on the fixture server for each destructive call.
 */
export function managedRows(
  resource: ResourceDef,
  options: {
    body: (f: Fixture, role: Role) => unknown;
    /** A fresh row on the fixture server: its path value (the id, or the name). */
    child: (f: Fixture) => Promise<number | string>;
  },
): Row[] {
  const rows: Row[] = [];
  for (const { op, method, template, def } of declaredRoutes(resource)) {
    const route = `${method} /api/v1/${toRoutePattern(template)}`;
    const child = childParam(template, resource.parent, resource.params);
    const params = child ? async (f: Fixture) => ({ [child]: await options.child(f) }) : undefined;
    // Under `app`, the fixture's app: `{appId}` is filled by the matrix, `?wsid=` here.
    const query =
      resource.parent === 'app' && appIn(template, queryOf(def)) === 'query'
        ? (f: Fixture) => `?wsid=${f.appId}`
        : undefined;
    if (op === 'list' || op === 'get') rows.push({ route, expect: SHARED, params, query });
    else if (op === 'create') rows.push({ route, body: options.body, expect: QUEUED, query });
    else if (op === 'update' || op === 'delete')
      rows.push({
        route,
        body: op === 'update' ? options.body : undefined,
        expect: QUEUED,
        params,
        query,
      });
  }
  return rows;
}
