/**
 * Query values that name a row (`loads` of a declared operation: `?dbuser=`, `?server=`): what
 * each names, through which owner the request hook loads it, and the loader. A route whose
 * query id names a kind without a loader, or a child of a server on a route without `{sid}`,
 * does not mount: no handler may receive an id it would have to check itself.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  type OperationDef,
  type ParamKind,
  type ResourceDef,
  bodyOf,
  queryIdOf,
  queryOf,
  templateParams,
} from '../../resources/define';
import { getResource } from '../../resources';
import type { ServerRow } from '../db/schema';
import { accountChildLoader, featureChildLoader } from '../features';

/**
 * Loads the row a query value names, through its owner: the route's `{sid}` server for a
 * child of a server, the `{uid}` user (or the caller, on a route without `{uid}`) otherwise.
 */
export type QueryRowLoader = (
  app: FastifyInstance,
  owner: { uid: number; server: ServerRow | null; ownedOnly: boolean },
  /** The query's value: a number for ids, text for names and uuids. */
  value: number | string,
) => Promise<unknown>;

/** What the request hook needs of one query id of a route (its `config.queryIds`). */
export interface QueryIdConfig {
  param: string;
  /** The resource whose row it names (the key of its loader in `app.rowLoaders.query`). */
  of: string;
  through: 'server' | 'user';
  /** The kind of the named resource's id: a value that cannot be one is as missing as none. */
  kind: ParamKind;
  /** The 404's words, `{<param>}` replaced by the value. */
  missing?: string;
  ownedOnly: boolean;
  /** A form's choice: absent answers 400 at the field instead of 404. */
  fieldError: boolean;
  /** The query field's own schema: a value it refuses is left to the validation's 400. */
  field: z.ZodType;
}

/** The loader of a kind of row a query may name, and the owner it is loaded through. */
export function queryRowLoader(
  of: string,
): { through: 'server' | 'user'; load: QueryRowLoader } | undefined {
  if (of === 'servers')
    return {
      through: 'user',
      load: (app, { uid, ownedOnly }, value) =>
        ownedOnly
          ? app.services.servers.findOwned(Number(value), uid)
          : app.services.servers.findAccessible(Number(value), uid),
    };
  const child = featureChildLoader(of);
  if (child)
    return {
      through: 'server',
      load: async (app, { server }, value) => (server ? child(app.db, server, value) : undefined),
    };
  const account = accountChildLoader(of);
  if (account)
    return { through: 'user', load: (app, { uid }, value) => account(app.db, uid, value) };
  return undefined;
}

/**
 * The query ids a route declares (`loads`), checked against what it can be loaded through; the
 * loader of each kind is put in the app's `rowLoaders.query`, where the request hook finds it.
 */
export function queryIdsOf(
  app: FastifyInstance,
  resource: ResourceDef,
  template: string,
  op: OperationDef,
): QueryIdConfig[] | undefined {
  if (!op.loads) return undefined;
  const shape = queryOf(op)?.shape ?? {};
  return Object.entries(op.loads).map(([param, declared]) => {
    const id = rowIdOf(app, op, template, `${resource.name}: ${template} ?${param}=`, declared);
    const field = shape[param];
    if (!field)
      throw new Error(
        `${resource.name}: ${template} ?${param}=: the route's query has no such field`,
      );
    return { param, ...id, fieldError: queryIdOf(declared).fieldError ?? false, field };
  });
}

/**
 * One declared id of a route (query or body), checked against what it can be loaded through:
 * the kind's loader joins the app's `rowLoaders.query`, where the request hook finds it.
 */
function rowIdOf(
  app: FastifyInstance,
  op: OperationDef,
  template: string,
  where: string,
  declared: Parameters<typeof queryIdOf>[0],
) {
  const { of, missing, ownedOnly = false } = queryIdOf(declared);
  if (op.guard === 'public') throw new Error(`${where}: a public route loads no row`);
  const found = queryRowLoader(of);
  if (!found) throw new Error(`${where}: no loader for rows of "${of}"`);
  if (found.through === 'server' && !templateParams(template).includes('sid'))
    throw new Error(`${where} names a child of a server on a route without {sid}`);
  if (ownedOnly && of !== 'servers') throw new Error(`${where}: ownedOnly is for servers only`);
  const named = getResource(of);
  if (!app.rowLoaders.query.has(of)) app.rowLoaders.query.set(of, found.load);
  return {
    of,
    through: found.through,
    kind: named.params?.[named.idParam ?? 'id'] ?? ('id' as const),
    missing: missing ?? named.missing,
    ownedOnly,
  };
}

/** What the request hook needs of one body id of a route (its `config.bodyIds`). */
export interface BodyIdConfig {
  field: string;
  of: string;
  through: 'server' | 'user';
  kind: ParamKind;
  /** The field's words for another tenant's or an absent row, `{<field>}` replaced by the id. */
  missing: string;
  ownedOnly: boolean;
  /** A list of ids (`databases: [1, 2]`): every one must load, and the rows keep its order. */
  list: boolean;
}

/** The field's schema without its optional, nullable or default wrapper. */
function unwrapped(field: z.ZodType): z.ZodType {
  let inner = field;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodNullable ||
    inner instanceof z.ZodDefault
  )
    inner = inner.unwrap() as z.ZodType;
  return inner;
}

/**
 * The body ids a route declares (`bodyLoads`), checked as query ids are; their loaders join the
 * app's `rowLoaders.query`, where the request hook finds them after the body's validation.
 */
export function bodyIdsOf(
  app: FastifyInstance,
  resource: ResourceDef,
  template: string,
  op: string,
  def: OperationDef,
): BodyIdConfig[] | undefined {
  if (!def.bodyLoads) return undefined;
  const body = bodyOf(resource, op, def);
  const shape = body instanceof z.ZodObject ? body.shape : {};
  return Object.entries(def.bodyLoads).map(([field, declared]) => {
    const where = `${resource.name}: ${template} body.${field}`;
    const id = rowIdOf(app, def, template, where, declared);
    const schema = shape[field];
    if (!schema) throw new Error(`${where}: the route's body has no such field`);
    return {
      field,
      ...id,
      missing: id.missing ?? `No such row #{${field}}`,
      list: unwrapped(schema as z.ZodType) instanceof z.ZodArray,
    };
  });
}
