/**
 * A web app as its server gets it (the spec the agent applies) and the managed kind that
 * applies, removes and reads it back.
 */
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import type { WebappRow } from './serverTable';
import { DEFAULT_PHP_SETTINGS, type PhpSettings, type WebappType, cacheSettings } from './names';
import type { AppSpec } from './resource';
import { webappInput } from './schemas';

/** A create's body: the route allows plain types only; the installers give their own. */
export type Input = Omit<z.output<typeof webappInput>, 'webapp_type'> & { webapp_type: WebappType };

/** Apps that run no PHP: a static site, and a Node.js app (nginx proxies to node). */
export const runsPhp = (type: string) => type !== 'static' && type !== 'nodejs';

export const domainsOf = (row: WebappRow): string[] => JSON.parse(row.domains) as string[];
export const settingsOf = (row: WebappRow): PhpSettings => ({
  ...DEFAULT_PHP_SETTINGS,
  ...(JSON.parse(row.php_settings) as Partial<PhpSettings>),
});

async function parentName(db: Db, row: WebappRow): Promise<string | null> {
  if (row.parent_id === null) return null;
  const parent = await db
    .selectFrom('webapps')
    .select('name')
    .where('id', '=', row.parent_id)
    .where('server_id', '=', row.server_id)
    .executeTakeFirst();
  return parent?.name ?? null;
}

/**
 * HTTPS of the app, while a certificate of features/ssl is on its server: one it served once
 * and not being removed (a refused renewal or replacement leaves the old one serving).
 */
async function tlsOf(db: Db, row: WebappRow): Promise<AppSpec['tls']> {
  const cert = await db
    .selectFrom('sslcerts')
    .select('force_https')
    .where('webapp_id', '=', row.id)
    .where('server_id', '=', row.server_id)
    .where('served', '=', 1)
    .where('status', '!=', 'deleting')
    .executeTakeFirst();
  return cert ? { force_https: Boolean(cert.force_https) } : null;
}

/**
 * The port nginx proxies a Node.js app to, once features/nodejs allocated it: read from its
 * table, as the certificate is from features/ssl's above (the spec is data of both; no import).
 */
async function proxyPortOf(db: Db, row: WebappRow): Promise<number | null> {
  const held = await db
    .selectFrom('node_ports')
    .select('port')
    .where('webapp_id', '=', row.id)
    .where('server_id', '=', row.server_id)
    .executeTakeFirst();
  return held?.port ?? null;
}

/** The app as its server gets it. */
export async function specOf(db: Db, row: WebappRow): Promise<AppSpec> {
  return {
    name: row.name,
    user: row.sys_user,
    stack_type: row.stack_type,
    webapp_type: row.webapp_type as AppSpec['webapp_type'],
    php_version: runsPhp(row.webapp_type) ? row.php_version : null,
    domains: domainsOf(row),
    web_root: row.web_root,
    php_settings: settingsOf(row),
    parent: await parentName(db, row),
    cache: row.cache ? cacheSettings.parse(JSON.parse(row.cache)) : null,
    tls: await tlsOf(db, row),
    // A Node.js app's port, once the installer allocated it (features/nodejs/serverPorts.ts).
    proxy_port: row.webapp_type === 'nodejs' ? await proxyPortOf(db, row) : null,
  };
}

const sameList = (a: readonly unknown[] | undefined, b: readonly unknown[]) =>
  a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/** The row's own columns from a valid create body (the user: the parent's for a child). */
export function columns(body: Input, user = body.sys_user) {
  return {
    name: body.name,
    webapp_type: body.webapp_type,
    stack_type: body.stack_type,
    php_version: runsPhp(body.webapp_type) ? body.php_version : null,
    domains: JSON.stringify(body.domains),
    web_root: body.web_root,
    php_settings: JSON.stringify(body.php_settings),
    sys_user: user,
    parent_id: body.parent_id,
    cache: null,
  };
}

export const webappKind = defineManagedKind<WebappRow>({
  resource: 'webstacks',
  table: 'webapps',
  toColumns: (input) => columns(webappInput.parse(input)),
  noun: (row) => `web app ${row.name}`,
  async apply(op, row, env) {
    await op('webapp.apply', await specOf(env.db, row));
  },
  async remove(op, row) {
    await op('webapp.remove', { name: row.name, user: row.sys_user, files: true });
  },
  async readBack(op, rows, env) {
    const found = new Map((await op('webapp.list', {})).map((a) => [a.name, a]));
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const app = found.get(row.name);
      const want = await specOf(env.db, row);
      if (!app) drift.set(row.id, 'missing');
      else if (
        app.user !== want.user ||
        app.stack_type !== want.stack_type ||
        (app.php_version ?? null) !== want.php_version ||
        app.web_root !== want.web_root ||
        !sameList(app.domains, want.domains)
      )
        drift.set(row.id, 'changed');
    }
    return drift;
  },
});
