/**
 * Path templates of the declarations (`sysusers/{id}/servers/{sid}/users/{uid}`): their
 * parameters, the parent a resource lives under and how a route names it, and filling a
 * template in. Pure; the browser, the panel and the agent share it.
 */
import type { z } from 'zod';

/**
 * The parent chain a resource lives under: `server` is the `{sid}` server, reached through the
 * caller's tenant; `app` is a web app of that server (`{appId}` in the path, or `?wsid=` where
 * the spec names it so), loaded through the server; `account` is the `{uid}` user and the teams
 * they belong to (a ticket, a DNS zone, a team). A child id is loaded through its parent: one
 * of another server, another app of the same server or another account is as missing as none.
 */
export type Parent = 'server' | 'app' | 'account';

/** The path parameter that names the web app of a resource under `app`. */
export const APP_PARAM = 'appId';
/** The query parameter by which the spec names the app on some routes (`nginxlog?wsid=`). */
export const APP_QUERY = 'wsid';

/**
 * The kind of a path parameter that names a thing inside the app on its server (a WordPress
 * user's id), not a panel row: no child of the server, the app's server looks it up.
 */
export const APP_LOCAL = 'appLocal';

/** Parameter kinds that name no panel row, so the request hook loads nothing for them. */
const NOT_ROWS: readonly string[] = [APP_LOCAL];

/** Path parameters the tenant check resolves itself: the user and the server. */
export const TENANT_PARAMS: readonly string[] = ['uid', 'sid'];

/** Names of `{placeholders}` in a path template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** `servers/{sid}/users/{uid}` -> `servers/:sid/users/:uid` (the server's route syntax). */
export function toRoutePattern(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

export class MissingPathParamError extends Error {}

/** Fills a template; every value is URI-encoded, a missing one throws. */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined || value === null || value === '') {
      throw new MissingPathParamError(`missing path parameter "${key}" for ${template}`);
    }
    return encodeURIComponent(String(value));
  });
}

/**
 * Where a route of a resource under `app` names its app: `{appId}` in the path, else `?wsid=`
 * in its declared query; undefined when it names none.
 */
export function appIn(template: string, query?: z.ZodObject): 'path' | 'query' | undefined {
  if (templateParams(template).includes(APP_PARAM)) return 'path';
  return query && APP_QUERY in query.shape ? 'query' : undefined;
}

/**
 * The child parameter of a template: the one path parameter under `{sid}` (under `{uid}` for a
 * resource of the account) that is not a tenant parameter
 * (`sysusers/{id}/servers/{sid}/users/{uid}` -> `id`), or none. Under `app`, the app's own
 * `{appId}` is a parent, not the child.
 */
export function childParam(
  template: string,
  parent?: Parent,
  kinds: Readonly<Record<string, string>> = {},
  /** Parameters that name the row holding the child (`within` of an account resource). */
  holders: Readonly<Record<string, string>> = {},
): string | undefined {
  const names = templateParams(template);
  if (!names.includes(parent === 'account' ? 'uid' : 'sid')) return undefined;
  const children = names.filter(
    (name) =>
      !TENANT_PARAMS.includes(name) &&
      !(parent === 'app' && name === APP_PARAM) &&
      !Object.hasOwn(holders, name) &&
      !NOT_ROWS.includes(kinds[name] ?? ''),
  );
  if (children.length > 1)
    throw new Error(`${template}: more than one child parameter (${children.join(', ')})`);
  return children[0];
}
