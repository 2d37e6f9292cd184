import type { DataProvider, Identifier, RaRecord } from 'ra-core';
import type { ActionDef, ResourceDef } from '../resources/define';
import { templateParams } from '../resources/templates';
import type { HttpClient } from './http';
import { type PathContext, atPath, pathKey, pathValues, resourceUrl } from './paths';

export interface ActionCall {
  /** Path values besides the acting user's `uid` (e.g. `sid`), or to override it. */
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface StackdeckDataProvider extends DataProvider {
  /** Calls a declared action: `action('users', 'generateApiKey')`. */
  action<T = unknown>(resource: string, action: string, call?: ActionCall): Promise<T>;
}

export type ResourceRegistry = Record<string, ResourceDef>;

/** The declarations, or a loader for them: the browser loads them on first use. */
export type RegistrySource = ResourceRegistry | (() => Promise<ResourceRegistry>);

/** One load of a registry source, shared by every caller. */
export function registryLoader(source: RegistrySource): () => Promise<ResourceRegistry> {
  let loading: Promise<ResourceRegistry> | null = null;
  return () => {
    loading ??= typeof source === 'function' ? source() : Promise.resolve(source);
    loading.catch(() => (loading = null)); // a failed chunk load may be retried
    return loading;
  };
}

export interface DataProviderOptions {
  apiUrl?: string;
  http: HttpClient;
  resources: RegistrySource;
  /** The user whose data the UI shows: the signed-in user, or the one an admin acts as. */
  context: () => PathContext;
  /** Told after every successful write (create, update, delete, non-GET action). */
  onWrite?: (resource: string) => void;
}

/** `meta.query`: the query of a call the spec overloads by query (`?dry=true`, `?rsa=get`). */
const queryOf = (meta: { query?: Record<string, unknown> } | undefined) => meta?.query ?? {};

/** Fields that changed, so a PATCH sends only what the user edited. */
export function changedFields(data: Record<string, unknown>, previous?: Record<string, unknown>) {
  if (!previous) return data;
  return Object.fromEntries(
    Object.entries(data).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(previous[key]),
    ),
  );
}

/**
 * react-admin's dataProvider, driven by resources/: every URL comes from the resource's
 * declared templates, every verb from its declared operations.
 */
export function createDataProvider(options: DataProviderOptions): StackdeckDataProvider {
  const apiUrl = options.apiUrl ?? '/api/v1';
  const { http } = options;
  const registry = registryLoader(options.resources);
  const wrote = <T>(resource: string, result: T): T => {
    options.onWrite?.(resource);
    return result;
  };

  const resourceOf = async (name: string): Promise<ResourceDef> => {
    const resource = (await registry())[name];
    if (!resource) throw new Error(`unknown resource "${name}"`);
    return resource;
  };
  const opOf = <K extends keyof ResourceDef['ops']>(resource: ResourceDef, op: K) => {
    const def = resource.ops[op];
    if (!def) throw new Error(`${resource.name} has no ${String(op)} operation`);
    return def as NonNullable<ResourceDef['ops'][K]>;
  };

  /** Filter keys that name path placeholders (e.g. `sid`) fill the path instead of the query. */
  const splitFilter = (template: string | undefined, filter: Record<string, unknown> = {}) => {
    const inPath = new Set(template ? templateParams(template) : []);
    const path: Record<string, unknown> = {};
    const query: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(filter))
      (inPath.has(key) ? path : query)[key] = value;
    return { path, query };
  };

  const getOne = async (
    name: string,
    id: Identifier,
    meta?: Record<string, unknown>,
    signal?: AbortSignal,
  ) => {
    const resource = await resourceOf(name);
    opOf(resource, 'get');
    const url = resourceUrl(
      apiUrl,
      resource.paths.one,
      pathValues(resource, options.context(), meta, id),
      queryOf(meta),
    );
    const { json } = await http(url, { method: 'GET', signal });
    return json as RaRecord;
  };

  const getList: DataProvider['getList'] = async (name, params) => {
    const resource = await resourceOf(name);
    const list = opOf(resource, 'list');
    const { path, query } = splitFilter(resource.paths.list, params.filter);
    const { page = 1, perPage = 25 } = params.pagination ?? {};
    const url = resourceUrl(
      apiUrl,
      resource.paths.list,
      pathValues(resource, options.context(), { ...path, ...params.meta }),
      {
        ...query,
        page,
        perPage,
        sort:
          params.sort?.field && list.sort?.includes(params.sort.field)
            ? params.sort.field
            : undefined,
        order: params.sort?.order,
      },
    );
    const { json } = await http(url, { method: 'GET', signal: params.signal });
    const body = json as { total?: number };
    const data = (atPath(json, list.dataKey ?? 'data') ?? []) as RaRecord[];
    // react-admin's generic record type is the caller's to choose.
    return { data: data as never[], total: body.total ?? data.length };
  };

  const update = async (
    name: string,
    id: Identifier,
    data: Record<string, unknown>,
    previousData?: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) => {
    const resource = await resourceOf(name);
    const def = opOf(resource, 'update');
    const method = def.method ?? 'PUT';
    const body = method === 'PATCH' ? changedFields(data, previousData) : data;
    const url = resourceUrl(
      apiUrl,
      resource.paths.one,
      pathValues(resource, options.context(), meta, id),
      queryOf(meta),
    );
    const { json } = await http(url, { method, body: JSON.stringify(body) });
    return wrote(name, json as RaRecord);
  };

  const remove = async (
    name: string,
    id: Identifier,
    meta?: Record<string, unknown>,
    previousData?: RaRecord,
  ) => {
    const resource = await resourceOf(name);
    opOf(resource, 'delete');
    const url = resourceUrl(
      apiUrl,
      resource.paths.one,
      pathValues(resource, options.context(), meta, pathKey(resource, id, previousData)),
      queryOf(meta),
    );
    const { json } = await http(url, { method: 'DELETE' });
    return wrote(name, (json ?? { id }) as RaRecord);
  };

  return {
    getList,
    getOne: async (name, params) => ({
      data: (await getOne(name, params.id, params.meta, params.signal)) as never,
    }),
    getMany: async (name, params) => ({
      data: (await Promise.all(
        params.ids.map((id) => getOne(name, id, params.meta, params.signal)),
      )) as never[],
    }),
    getManyReference: (name, params) =>
      getList(name, { ...params, filter: { ...params.filter, [params.target]: params.id } }),
    async create(name, params) {
      const resource = await resourceOf(name);
      opOf(resource, 'create');
      const url = resourceUrl(
        apiUrl,
        resource.paths.list,
        pathValues(resource, options.context(), params.meta),
        queryOf(params.meta),
      );
      const { json } = await http(url, { method: 'POST', body: JSON.stringify(params.data) });
      return wrote(name, { data: json as RaRecord & { id: Identifier } } as never);
    },
    update: async (name, params) => ({
      data: (await update(name, params.id, params.data, params.previousData, params.meta)) as never,
    }),
    updateMany: async (name, params) => {
      await Promise.all(
        params.ids.map((id) => update(name, id, params.data, undefined, params.meta)),
      );
      return { data: params.ids };
    },
    delete: async (name, params) => ({
      data: (await remove(name, params.id, params.meta, params.previousData)) as never,
    }),
    deleteMany: async (name, params) => {
      await Promise.all(params.ids.map((id) => remove(name, id, params.meta)));
      return { data: params.ids };
    },
    async action<T>(name: string, actionName: string, call: ActionCall = {}) {
      const resource = await resourceOf(name);
      const action: ActionDef | undefined = resource.actions?.[actionName];
      if (!action) throw new Error(`${name} has no action "${actionName}"`);
      const values = { ...pathValues(resource, options.context(), undefined), ...call.params };
      const url = resourceUrl(apiUrl, action.path, values, call.query);
      const { json } = await http(url, {
        method: action.method,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.signal,
      });
      return action.method === 'GET' ? (json as T) : wrote(name, json as T);
    },
    supportAbortSignal: true,
  };
}
