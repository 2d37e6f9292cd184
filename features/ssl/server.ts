import type { Generated, Kysely } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import { HttpError, fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, type KindEnv, defineManagedKind } from '../../server/managed/kind';
import { ManagedStore } from '../../server/managed/store';
import {
  type ManagedColumns,
  type ManagedRow,
  createManagedTable,
} from '../../server/managed/table';
import type { AppSpec } from '../webapps/resource';
import type { WebappRow } from '../webapps/serverTable';
import { specOf } from '../webapps/serverKind';
import {
  type certChange,
  type customCertInput,
  type letsencryptInput,
  appsslcerts,
  sslcerts,
} from './resource';
import { checkCustomCert } from './serverCert';

interface SslColumns {
  webapp_id: number;
  type: 'custom' | 'letsencrypt';
  /** JSON array of the names the certificate covers (the app's domains until issued). */
  names: string;
  issuer: string | null;
  not_before: string | null;
  not_after: string | null;
  force_https: number;
  email: string | null;
  /** The uploaded full chain (PEM, public), for a custom certificate the server may ask again. */
  certificate: string | null;
  /** The uploaded key, sealed with the install's key, until the server has it (transient). */
  private_key: string | null;
  /** 1 while a renewal is asked and not yet done (transient). */
  renew: number | null;
  /**
   * 1 once the server has served a certificate for the app: a later refusal (a renewal the CA
   * refused, a replacement nginx refused) leaves the old one in place, so the app's vhost keeps
   * its HTTPS server when it is written again.
   */
  served: Generated<number>;
}
export type SslRow = ManagedRow & SslColumns;

declare module '../../server/db/schema' {
  interface Database {
    sslcerts: ManagedColumns & SslColumns;
  }
}
declare module '../../server/http/children' {
  interface FeatureChildRows {
    sslcerts: SslRow;
  }
}

const migration = {
  async up(db: Kysely<unknown>) {
    await createManagedTable(db, 'sslcerts')
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('names', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text')
      .addColumn('not_before', 'varchar(32)')
      .addColumn('not_after', 'varchar(32)')
      .addColumn('force_https', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('email', 'varchar(254)')
      .addColumn('certificate', 'text')
      .addColumn('private_key', 'text')
      .addColumn('renew', 'integer')
      .addColumn('served', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('sslcerts_webapp', ['webapp_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sslcerts').execute();
  },
};

/** The ACME directory certificates are asked of (Let's Encrypt's production by default). */
export const acmeDirectory = () =>
  process.env.ACME_DIRECTORY_URL || 'https://acme-v02.api.letsencrypt.org/directory';
/** A CA bundle (a path on the server) certbot trusts for the directory: a test CA only. */
const acmeCaBundle = () => process.env.ACME_CA_BUNDLE || null;

const namesOf = (row: SslRow): string[] => JSON.parse(row.names) as string[];

async function appOf(db: Db, row: SslRow): Promise<WebappRow> {
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

type Custom = z.output<typeof customCertInput>;
type Change = z.output<typeof certChange>;
type Letsencrypt = z.output<typeof letsencryptInput>;

/** The record: never the key, nor the uploaded text. */
function record(row: SslRow) {
  const { private_key: _key, certificate: _cert, renew: _renew, served: _served, ...rest } = row;
  return { ...rest, names: namesOf(row), force_https: row.force_https === 1 };
}

const store = (ctx: HandlerContext) => new ManagedStore<SslRow>(ctx.app.db, 'sslcerts');

/** One of this server's apps, able to take a certificate (none of its own yet). */
async function loadApp(ctx: HandlerContext, id: number): Promise<WebappRow> {
  const app = (await ctx.app.db
    .selectFrom('webapps')
    .selectAll()
    .where('id', '=', id)
    .where('server_id', '=', ctx.server.id)
    .executeTakeFirst()) as WebappRow | undefined;
  if (!app || app.status === 'deleting') throw fieldError('webapp_id', `No web app #${id} here`);
  const has = await store(ctx).find(ctx.server.id, 'webapp_id', id);
  if (has)
    throw fieldError(
      'webapp_id',
      `${app.name} has a certificate already: replace it, or delete it first`,
    );
  return app;
}

const domainsOf = (app: WebappRow) => JSON.parse(app.domains) as string[];

const actorOf = (ctx: HandlerContext) =>
  ctx.caller
    ? (ctx.caller.actorId ?? (ctx.caller.id !== ctx.server.user_id ? ctx.caller.id : null))
    : null;

/** Asks the server and answers the row (201/200, 202 while it waits, the refusal). */
async function settle(ctx: HandlerContext, row: SslRow, message: string, fresh: boolean) {
  const result = await converge(ctx.app, ctx.server, sslKind, row, 'apply', {
    message,
    actorId: actorOf(ctx),
  });
  if (result.state === 'failed') {
    // A new certificate the server refused is not kept: the form shows why.
    if (fresh && result.error.statusCode === 400) await store(ctx).remove(row);
    throw result.error;
  }
  if (result.state === 'waiting') ctx.reply.code(202);
  return record(result.row);
}

const custom = defineManagedHandlers<SslRow, Custom, Change>(sslcerts, sslKind, {
  async create(ctx, body) {
    const app = await loadApp(ctx, body.webapp_id);
    const checked = checkCustomCert(body, domainsOf(app));
    return {
      webapp_id: app.id,
      type: 'custom',
      names: JSON.stringify(checked.names),
      issuer: checked.issuer,
      not_before: checked.not_before,
      not_after: checked.not_after,
      force_https: body.force_https ? 1 : 0,
      email: null,
      certificate: checked.fullchain,
      private_key: ctx.app.services.box.seal(checked.privkey),
      renew: null,
    };
  },
  async update(ctx, body, row) {
    if (row.status === 'deleting') throw new HttpError(409, 'The certificate is being removed');
    const values: Record<string, unknown> = {};
    if (body.force_https !== undefined) values.force_https = body.force_https ? 1 : 0;
    if (body.certificate !== undefined || body.private_key !== undefined) {
      if (row.type !== 'custom')
        throw fieldError(
          'certificate',
          "A Let's Encrypt certificate is renewed, not replaced: delete it to upload your own",
        );
      if (!body.certificate) throw fieldError('certificate', 'Give the new certificate too');
      if (!body.private_key) throw fieldError('private_key', 'Give the new private key too');
      const app = await appOf(ctx.app.db, row);
      const checked = checkCustomCert(
        { certificate: body.certificate, private_key: body.private_key, chain: body.chain },
        domainsOf(app),
      );
      Object.assign(values, {
        names: JSON.stringify(checked.names),
        issuer: checked.issuer,
        not_before: checked.not_before,
        not_after: checked.not_after,
        certificate: checked.fullchain,
        private_key: ctx.app.services.box.seal(checked.privkey),
      });
    }
    return values;
  },
  record,
  where: (query): Record<string, number> =>
    typeof query.webapp_id === 'number' ? { webapp_id: query.webapp_id } : {},
  actions: {
    /** `POST letsencrypt`: a row for the app, then certbot on the server. */
    async letsencrypt(ctx) {
      const body = ctx.body as unknown as Letsencrypt;
      const app = await loadApp(ctx, body.webapp_id);
      const row = await store(ctx).insert(ctx.server.id, {
        webapp_id: app.id,
        type: 'letsencrypt',
        names: JSON.stringify(domainsOf(app)),
        issuer: null,
        not_before: null,
        not_after: null,
        force_https: body.force_https ? 1 : 0,
        email: body.email ?? null,
        certificate: null,
        private_key: null,
        renew: null,
      });
      ctx.reply.code(201);
      return settle(ctx, row, `Issue a Let's Encrypt certificate for web app ${app.name}`, true);
    },
    /** `PATCH letsencrypt/{certId}`: certbot renews now. */
    async renew(ctx) {
      const row = ctx.child as SslRow;
      if (row.type !== 'letsencrypt')
        throw new HttpError(409, 'An uploaded certificate is replaced, not renewed');
      if (row.status === 'deleting') throw new HttpError(409, 'The certificate is being removed');
      const pending = await store(ctx).change(row, { renew: 1 });
      return settle(ctx, pending, `Renew ${sslKind.noun(row)}`, false);
    },
    /** The certificates that name the server's hostname (or the one asked). */
    async hostname(ctx) {
      const given = (ctx.query as { hostname?: string }).hostname;
      const hostname = given ?? ctx.server.hostname ?? null;
      const rows = await store(ctx).all(ctx.server.id);
      const data = hostname
        ? rows.filter((r) => namesOf(r).some((n) => matches(n, hostname))).map(record)
        : [];
      return { hostname, data, total: data.length };
    },
  },
});

/** A certificate name (`*.example.com` included) that covers a host name. */
function matches(name: string, host: string): boolean {
  if (name === host) return true;
  return (
    name.startsWith('*.') &&
    host.endsWith(name.slice(1)) &&
    !host.slice(0, -name.length + 1).includes('.')
  );
}

export const server = defineServerFeature({
  migrations: { '0018_ssl': migration },
  managed: [sslKind],
  handlers: [
    custom,
    defineManagedHandlers<SslRow, never>(appsslcerts, sslKind, {
      create: () => Promise.reject(new HttpError(405, 'Not here')),
      record,
    }),
  ],
});
