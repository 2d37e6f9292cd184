/**
 * What a resource declaration is: its types (guards, parameter kinds, scopes, operations) and
 * the pure readings of one (its routes, its query, its scope). Imported by the browser bundle,
 * the panel and the agent alike; `define.ts` builds declarations from it.
 */
import { z } from 'zod';
import type { APP_LOCAL, Parent } from './templates';
import type { ResourceUi } from './widgets';

/** Who may call an operation. Every route declares one; the server refuses to mount without. */
export type Guard =
  /** Anyone, without a token. */
  | 'public'
  /** Any signed-in caller. */
  | 'user'
  /** The `{uid}` of the path must be the caller; admins may name any user. */
  | 'self'
  /** Admins and admin staff (staff reach Users and Servers only). */
  | 'staff'
  /** Admins only. */
  | 'admin';

export const GUARDS: readonly Guard[] = ['public', 'user', 'self', 'staff', 'admin'];

/**
 * What a path parameter names. The tenant parameters (`{uid}`, `{sid}`) are implied; every other
 * parameter of a resource under a parent is declared, and the request hook loads it through that
 * parent before any handler runs.
 */
export type ParamKind = 'id' | 'name' | 'version' | 'uuid' | typeof APP_LOCAL;

/**
 * Who owns a resource's rows (DESIGN.md "Scopes"): `server` (a parent `server` or `app`),
 * `account` (parent `account`: a user's or their teams' rows, under `{uid}`), `panel` (the
 * install's catalogues, admins only, with staff where spec s.6 lets them), `public` (no owner).
 * Declared for panel catalogues; implied by the parent otherwise.
 */
export type Scope = 'server' | 'account' | 'panel' | 'public';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The kinds of row a query value may name (`loads`), by resource name, with what owns them:
 * `server` (a child of the route's `{sid}`), `user` (a row the `{uid}` user, or on a route
 * without `{uid}` the caller, reaches). A feature whose rows a query names adds them by
 * declaration merging: `declare module '.../resources/declaration' { interface QueryRowKinds {
 * dbusers: 'server' } }`.
 */
export interface QueryRowKinds {
  /** A server the user reaches (their own, or shared with one of their teams). */
  servers: 'user';
}

/**
 * A row a query value names (`?dbuser=`, `?server=`): the request hook loads it through its
 * owner before the handler runs, which gets it as `ctx.loaded.<param>`.
 */
export interface QueryIdDef {
  /** The resource whose row it is. */
  of: keyof QueryRowKinds & string;
  /**
   * The words of the 404 for another tenant's or an absent row; `{<param>}` is replaced by the
   * value (`No database user #{dbuser} on this server`). Default: the resource's `missing`.
   */
  missing?: string;
  /** `servers` only: strictly the user's own server; one shared with their team is absent. */
  ownedOnly?: boolean;
  /**
   * The value is a choice a form made (`?userdel=` picks a user of the database): another
   * tenant's or an absent row answers 400 at the field, in `missing`'s words, not 404.
   */
  fieldError?: boolean;
}

export interface OperationDef {
  guard: Guard;
  summary?: string;
  /** Refused while an admin acts as the user: password, two-factor, API keys. */
  forbidWhileActing?: boolean;
  /** Rate-limited per account and per client (login, OTP, reset). */
  rateLimited?: boolean;
  /** With guard `self`: admin staff may also name any user (they reach Users and Servers). */
  staffMay?: boolean;
  /**
   * On a server shared with a team: only the server's owner may do this (members get 403 with
   * "Only the server's owner can <this>"). Everything else a member does like the owner.
   */
  ownerOnly?: string;
  /**
   * A GET call of the spec that changes something (mails a code, makes a key, starts a
   * service): its HEAD twin answers 405 and never runs the handler, as HEAD must not change state.
   */
  changesState?: boolean;
  /**
   * Query values that name a row (`{ dbuser: 'dbusers' }`): each is a field of the declared
   * query, loaded by the request hook through its owner (a child of the route's `{sid}`, or a
   * row the `{uid}` user or the caller reaches); another tenant's or an absent one answers 404
   * before the handler runs, which gets the row as `ctx.loaded.<param>`. A missing one is the
   * query schema's to refuse (400) where it is required.
   */
  loads?: Readonly<Record<string, (keyof QueryRowKinds & string) | QueryIdDef>>;
  /**
   * Body fields that name a row, or a list of rows (`{ webapp_id: 'webstacks' }`, `{ databases:
   * 'databases' }`): loaded by the request hook after validation through the same owners as
   * `loads`; another tenant's or an absent one answers 400 at the field (a form's choice) in
   * `missing`'s words, `{<field>}` the id. The handler gets the row, or the rows in the order
   * sent, as `ctx.loaded.<field>` and never looks one up.
   */
  bodyLoads?: Readonly<Record<string, (keyof QueryRowKinds & string) | QueryIdDef>>;
}

export interface ListDef extends OperationDef {
  /** Fields the client may sort by; the first is the default, descending. */
  sort?: readonly string[];
  /** Filter query parameters accepted besides paging and sorting. */
  filters?: z.ZodObject;
  /** Dot path of the array in the response, where the spec fixes one (`tickets.ticket`). */
  dataKey?: string;
}

/** get, create, update, delete: where the spec overloads a route by query, both are declared. */
export interface ItemDef extends OperationDef {
  query?: z.ZodObject;
  /** The answer, when it is not simply the record (`?dry=true` checks, `?rsa=` keys). */
  response?: z.ZodType;
}

export interface WriteDef extends ItemDef {
  /** Body schema; defaults to the resource's `input` schema. */
  body?: z.ZodObject;
  /** Body size limit in bytes, where the call takes more than the default (an upload). */
  bodyLimit?: number;
}

export interface UpdateDef extends WriteDef {
  method?: 'PUT' | 'PATCH';
}

/** A call that is not plain CRUD: login, key generation, OTP... still declared, still guarded. */
export interface ActionDef extends OperationDef {
  method: HttpMethod;
  /** Template under api/v1, e.g. `auth/gen/users/{uid}`. */
  path: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Success status; 200 unless said. */
  status?: number;
  /** Body size limit in bytes, where a call takes more than the default. */
  bodyLimit?: number;
  /**
   * The body's bytes as received are kept (`req.rawBody`) before JSON parsing: a webhook's
   * signature is computed over them. Scoped to this route.
   */
  rawBody?: boolean;
}

export interface ResourceOps {
  list?: ListDef;
  get?: ItemDef;
  create?: WriteDef;
  update?: UpdateDef;
  delete?: ItemDef;
}

export interface ResourceDef<
  S extends z.ZodObject = z.ZodObject,
  I extends z.ZodObject = z.ZodObject,
  A extends Record<string, ActionDef> = Record<string, ActionDef>,
  O extends ResourceOps = ResourceOps,
  N extends string = string,
> {
  /** react-admin resource name. */
  name: N;
  label: string;
  /**
   * The parent chain: a resource under `server` has `{sid}` in every path, and each other
   * parameter in its paths is a child of that server, loaded through it by the request hook
   * (a foreign or missing one answers 404 before the handler runs).
   */
  parent?: Parent;
  /**
   * `panel`: a catalogue of the install (plans, releases, the PHP extensions): every operation
   * is guarded `admin` or `staff` and names no user or server. Other scopes follow `parent`.
   */
  scope?: 'panel';
  /**
   * The words of the 404 when the request hook finds no row for the path's id ("No such
   * ticket"): the same for another account's row as for one that does not exist.
   */
  missing?: string;
  /** The kind of each path parameter besides `{uid}` and `{sid}` (e.g. `{ id: 'id' }`). */
  params?: Readonly<Record<string, ParamKind>>;
  /**
   * An account resource whose rows live inside a row of another (a DNS record in a zone): the
   * path parameter that names the holder and its resource, `{ zoneId: 'dns-zones' }`. The
   * request hook loads the holder through `{uid}` by that resource's loader, then the child
   * within it; the handler gets the holder as `ctx.within`.
   */
  within?: Readonly<Record<string, string>>;
  /** The record as the API returns it. Fields not in it never leave the server. */
  schema: S;
  /** What a client may write on create/update; privileged fields are never in it. */
  input?: I;
  paths: {
    /** Collection template, e.g. `authlogs/users/{uid}`. */
    list?: string;
    /** Item template, e.g. `cronjobs/{id}/servers/{sid}/users/{uid}`. */
    one?: string;
  };
  /** Path parameter that carries the record id in `paths.one` (default `id`). */
  idParam?: string;
  ops: O;
  actions?: A;
  ui?: ResourceUi;
  /**
   * A valid create (and update) body. The derived tests send it (the authorization matrix's
   * default rows of a server-managed resource) and make their rows from it.
   */
  example?: Readonly<Record<string, unknown>>;
}

/** The scope a declaration's rows belong to (DESIGN.md "Scopes"). */
export function scopeOf(def: Pick<ResourceDef, 'parent' | 'scope' | 'ops' | 'actions'>): Scope {
  if (def.scope) return def.scope;
  if (def.parent === 'account') return 'account';
  if (def.parent) return 'server';
  const guards = declaredRoutes(def as ResourceDef).map((r) => r.def.guard);
  if (guards.length && guards.every((g) => g === 'public')) return 'public';
  if (guards.length && guards.every((g) => g === 'admin' || g === 'staff')) return 'panel';
  return 'account';
}

/**
 * The body a declared route accepts: its own `body`, else the resource's input (all of it on
 * create, any part of it on update); none for reads and deletes.
 */
export function bodyOf(
  resource: ResourceDef,
  op: string,
  def: OperationDef,
): z.ZodType | undefined {
  const own = (def as { body?: z.ZodType }).body;
  if (own) return own;
  if (op === 'create') return resource.input ?? resource.schema;
  if (op === 'update') return (resource.input ?? resource.schema).partial();
  return undefined;
}

/** The query a declared operation accepts (list filters, an item's or an action's query). */
export function queryOf(op: OperationDef): z.ZodObject | undefined {
  const withQuery = op as { query?: z.ZodType; filters?: z.ZodObject };
  const query = withQuery.query ?? withQuery.filters;
  return query instanceof z.ZodObject ? query : undefined;
}

/** Every route a declaration makes: operation, method and template (what the server mounts). */
export function declaredRoutes(
  def: ResourceDef,
): { op: string; method: HttpMethod; template: string; def: OperationDef }[] {
  const { list, get, create, update, delete: del } = def.ops;
  const routes: { op: string; method: HttpMethod; template: string; def: OperationDef }[] = [];
  if (list) routes.push({ op: 'list', method: 'GET', template: def.paths.list!, def: list });
  if (get) routes.push({ op: 'get', method: 'GET', template: def.paths.one!, def: get });
  if (create) routes.push({ op: 'create', method: 'POST', template: def.paths.list!, def: create });
  if (update)
    routes.push({
      op: 'update',
      method: update.method ?? 'PUT',
      template: def.paths.one!,
      def: update,
    });
  if (del) routes.push({ op: 'delete', method: 'DELETE', template: def.paths.one!, def: del });
  for (const [name, action] of Object.entries<ActionDef>(def.actions ?? {}))
    routes.push({
      op: `action:${name}`,
      method: action.method,
      template: action.path,
      def: action,
    });
  return routes;
}

/** A declared query id in its long form (`'dbusers'` is `{ of: 'dbusers' }`). */
export function queryIdOf(declared: (keyof QueryRowKinds & string) | QueryIdDef): QueryIdDef {
  return typeof declared === 'string' ? { of: declared } : declared;
}
