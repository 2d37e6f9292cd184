import type { ResourceDef } from '../resources/define';
import { fillTemplate } from '../resources/templates';

/** Values a path template may draw on: the acting user, then meta (sid, appId...), then the id. */
export interface PathContext {
  uid: number | null;
}

export function pathValues(
  resource: ResourceDef,
  context: PathContext,
  meta: Record<string, unknown> | undefined,
  id?: unknown,
): Record<string, unknown> {
  const values: Record<string, unknown> = { uid: context.uid, ...meta };
  if (id !== undefined) values[resource.idParam ?? 'id'] = id;
  return values;
}

/**
 * What fills the item path's parameter: the record's id, or, where the path names the record
 * by a field of its own (`svjobs/{name}`), that field of the record.
 */
export function pathKey(resource: ResourceDef, id: unknown, record?: Record<string, unknown>) {
  const param = resource.idParam ?? 'id';
  if (param !== 'id' && resource.params?.[param] === 'name' && record && param in record)
    return record[param];
  return id;
}

/** Query string with stable ordering; arrays repeat the key, empty values are left out. */
export function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function resourceUrl(
  apiUrl: string,
  template: string | undefined,
  values: Record<string, unknown>,
  query: Record<string, unknown> = {},
): string {
  if (!template) throw new Error('this resource has no path for that operation');
  return `${apiUrl}/${fillTemplate(template, values)}${queryString(query)}`;
}

/** Reads `tickets.ticket`-style paths out of a response. */
export function atPath(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  return path
    .split('.')
    .reduce<unknown>((inner, key) => (inner as Record<string, unknown> | null)?.[key], value);
}
