/**
 * A certificate as its server gets it: installed from the upload or issued by certbot with the
 * app's vhost, read back (a renewal certbot made on the server taken in), removed with it.
 */
import { HttpError } from '../../server/http/errors';
import type { Db } from '../../server/db/database';
import { type Drift, type KindEnv, defineManagedKind } from '../../server/managed/kind';
import type { AppSpec } from '../webapps/api';
import { specOf, type WebappRow } from '../webapps/serverApi';
import type { SslRow } from './serverTable';

/** The ACME directory certificates are asked of (Let's Encrypt's production by default). */
export const acmeDirectory = () =>
  process.env.ACME_DIRECTORY_URL || 'https://acme-v02.api.letsencrypt.org/directory';
/** A CA bundle (a path on the server) certbot trusts for the directory: a test CA only. */
const acmeCaBundle = () => process.env.ACME_CA_BUNDLE || null;

export const namesOf = (row: SslRow): string[] => JSON.parse(row.names) as string[];

export async function appOf(db: Db, row: SslRow): Promise<WebappRow> {
  const app = (await db
    .selectFrom('webapps')
    .selectAll()
    .where('id', '=', row.webapp_id)
    .where('server_id', '=', row.server_id)
    .executeTakeFirst()) as WebappRow | undefined;
  if (!app) throw new HttpError(409, 'The web app of this certificate is gone');
  return app;
}

async function specWith(env: KindEnv, row: SslRow, tls: AppSpec['tls']): Promise<AppSpec> {
  return { ...(await specOf(env.db, await appOf(env.db, row))), tls };
}

export const sslKind = defineManagedKind<SslRow>({
  resource: 'sslcerts',
  table: 'sslcerts',
  transient: ['private_key', 'renew'],
  noun: (row) =>
    `${row.type === 'letsencrypt' ? "Let's Encrypt" : 'SSL'} certificate of ${namesOf(row)[0] ?? `app #${row.webapp_id}`}`,
  async apply(op, row, env) {
    const app = await specWith(env, row, { force_https: row.force_https === 1 });
    const info =
      row.type === 'custom'
        ? await op('ssl.install', {
            app,
            files:
              row.private_key && row.certificate
                ? { fullchain: row.certificate, privkey: env.box.open(row.private_key) }
                : null,
          })
        : await op('ssl.letsencrypt', {
            app,
            email: row.email,
            directory: acmeDirectory(),
            ca_bundle: acmeCaBundle(),
            force: row.renew === 1,
          });
    // What the server serves now (updated_at stays: the platform settles the row as asked).
    await env.db
      .updateTable('sslcerts')
      .set({
        names: JSON.stringify(info.names),
        issuer: info.issuer,
        not_before: info.not_before,
        not_after: info.not_after,
        served: 1,
      })
      .where('id', '=', row.id)
      .where('server_id', '=', row.server_id)
      .execute();
  },
  async readBack(op, rows, env) {
    const found = new Map((await op('ssl.list', {})).map((c) => [c.app, c]));
    const ids = [...new Set(rows.map((r) => r.webapp_id))];
    const apps = ids.length
      ? await env.db.selectFrom('webapps').select(['id', 'name']).where('id', 'in', ids).execute()
      : [];
    const drift = new Map<number, Drift>();
    for (const row of rows.filter((r) => r.status === 'active')) {
      const name = apps.find((a) => a.id === row.webapp_id)?.name;
      const there = name === undefined ? undefined : found.get(name);
      if (!there) drift.set(row.id, 'missing');
      else if (there.not_after === row.not_after) continue;
      else if (renewedOnServer(row, there)) {
        // certbot renews on the server (its cron line): a later certificate of the same names
        // is that renewal, taken in rather than shown as a change.
        await env.db
          .updateTable('sslcerts')
          .set({
            not_before: there.not_before,
            not_after: there.not_after,
            issuer: there.issuer,
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', row.id)
          .execute();
      } else drift.set(row.id, 'changed');
    }
    return drift;
  },
  async remove(op, row, env) {
    const app = await env.db
      .selectFrom('webapps')
      .select('id')
      .where('id', '=', row.webapp_id)
      .executeTakeFirst();
    if (!app) return;
    const spec = await specWith(env, row, null);
    await op('ssl.remove', { app: spec, name: spec.name });
  },
});

/** A Let's Encrypt certificate the server renewed itself: same names, valid for longer. */
function renewedOnServer(row: SslRow, there: { names: string[]; not_after: string }): boolean {
  const names = namesOf(row);
  return (
    row.type === 'letsencrypt' &&
    row.not_after !== null &&
    there.not_after > row.not_after &&
    there.names.length === names.length &&
    names.every((n) => there.names.includes(n))
  );
}
