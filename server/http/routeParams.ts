/**
 * What a route's path names, checked before any handler runs: the schema of its parameters
 * (by their declared kind), the child it loads through the server, and where a resource under
 * `app` names its app. A route that cannot say does not mount.
 */
import { z } from 'zod';
import {
  type OperationDef,
  type ParamKind,
  type ResourceDef,
  APP_PARAM,
  APP_QUERY,
  appIn,
  childParam,
  queryOf,
  templateParams,
} from '../../resources/define';
import { accountChildLoader, featureChildLoader } from '../features';
import type { ChildLoader } from './children';
import { ID_PATTERN } from './ids';

/** Path parameters are positive integers unless their name says otherwise. */
const PARAM_SCHEMAS: Record<string, z.ZodType> = {
  uuid: z.uuid(),
};
/** Digits only: `0x1`, `1e0` or ` 1` are not another spelling of id 1. */
const integerParam = z.string().regex(ID_PATTERN).transform(Number);
/** Path parameters by their declared kind (`ResourceDef.params`). */
const KIND_SCHEMAS: Record<ParamKind, z.ZodType> = {
  id: integerParam,
  uuid: z.uuid(),
  name: z.string().min(1).max(255),
  // An id within the app (a WordPress user's): the handler passes it to the app's server.
  appLocal: integerParam,
  version: z.string().min(1).max(64),
};

/**
 * Whether a path value can be of its declared kind (`uuid`: a uuid...): the request hook asks
 * before it loads a row, as it runs before the route's validation; a value that cannot be is
 * as missing as a row that does not exist.
 */
export function fitsKind(kind: ParamKind, raw: string): boolean {
  return KIND_SCHEMAS[kind].safeParse(raw).success && !raw.includes('\0');
}

export function paramsSchema(template: string, kinds: ResourceDef['params'] = {}) {
  const shape: Record<string, z.ZodType> = {};
  for (const name of templateParams(template)) {
    const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
    shape[name] = kind ? KIND_SCHEMAS[kind] : (PARAM_SCHEMAS[name] ?? integerParam);
  }
  return Object.keys(shape).length ? z.object(shape) : undefined;
}

/**
 * The child a route names under `{sid}` and the loader that finds it through the server. A
 * route with a child id whose resource declares no parent, no kind for it or has no loader
 * does not mount: no handler may receive an id it would have to check itself.
 */
export function childOf(
  resource: ResourceDef,
  template: string,
): { param: string; kind: ParamKind; load: ChildLoader } | undefined {
  if (resource.parent === 'account') return undefined;
  const param = childParam(template, resource.parent, resource.params);
  if (param === undefined) return undefined;
  const where = `${resource.name}: ${template}`;
  if (!resource.parent) throw new Error(`${where} names {${param}} but no parent`);
  const kind = resource.params?.[param];
  if (!kind) throw new Error(`${where} declares no kind for {${param}}`);
  const load = featureChildLoader(resource.name);
  if (!load)
    throw new Error(`${where}: no loader for {${param}} (its feature's children or managed kind)`);
  return { param, kind, load };
}

/**
 * The child a route of an account resource names under `{uid}` (a ticket, a zone, a team): its
 * parameter and resource, whose loader (`accountChildren` of its feature) the request hook
 * calls through the `{uid}` user. A route with such an id and no loader does not mount.
 */
export function ownedOf(
  resource: ResourceDef,
  template: string,
): { param: string; kind: ParamKind; resource: string; missing?: string } | undefined {
  if (resource.parent !== 'account') return undefined;
  const param = childParam(template, resource.parent, resource.params, resource.within);
  if (param === undefined) return undefined;
  const where = `${resource.name}: ${template}`;
  const kind = resource.params?.[param];
  if (!kind) throw new Error(`${where} declares no kind for {${param}}`);
  if (!accountChildLoader(resource.name))
    throw new Error(`${where}: no account loader for {${param}} (accountChildren)`);
  return { param, kind, resource: resource.name, missing: resource.missing };
}

/** The resource whose rows are the apps that resources under `app` hang from. */
const APPS = 'webstacks';

/**
 * Where a route of a resource under `app` names its app, with the apps' loader; a route that
 * names none, or an install without the apps' feature, does not mount.
 */
export function appOf(
  resource: ResourceDef,
  template: string,
  op: OperationDef,
): { where: 'path' | 'query'; load: ChildLoader } | undefined {
  if (resource.parent !== 'app') return undefined;
  const where = appIn(template, queryOf(op));
  if (!where)
    throw new Error(
      `${resource.name}: ${template} names no app ({${APP_PARAM}} or ?${APP_QUERY}=)`,
    );
  const load = featureChildLoader(APPS);
  if (!load) throw new Error(`${resource.name}: no loader for the apps (${APPS})`);
  return { where, load };
}

/**
 * The row that holds the child of an account resource (`within`: the zone of a DNS record),
 * where the route names it: loaded through `{uid}` by its own resource's loader first, and the
 * child (if the route names one) within it. A holder without a loader does not mount.
 */
export function holderOf(
  resource: ResourceDef,
  template: string,
): { param: string; kind: ParamKind; resource: string } | undefined {
  const names = templateParams(template);
  const held = Object.entries(resource.within ?? {}).filter(([param]) => names.includes(param));
  if (held.length === 0) return undefined;
  const where = `${resource.name}: ${template}`;
  if (held.length > 1) throw new Error(`${where} names more than one holder`);
  const [param, holder] = held[0]!;
  const kind = resource.params?.[param];
  if (!kind) throw new Error(`${where} declares no kind for {${param}}`);
  if (!accountChildLoader(holder))
    throw new Error(`${where}: no account loader for {${param}} (${holder})`);
  return { param, kind, resource: holder };
}
