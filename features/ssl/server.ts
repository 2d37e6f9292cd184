import { HttpError, fieldError } from '../../server/http/errors';
import { loadedChild, type HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { ManagedStore } from '../../server/managed/store';
import type { WebappRow } from '../webapps/serverApi';
import { appsslcerts, sslcerts } from './resource';
import { checkCustomCert, selfSignedPem } from './serverCert';
import { appOf, namesOf, sslKind } from './serverKind';
import { readBackJob, renewalCheckJob, renewalSchedule } from './serverRenewal';
import { type SslRow, migration } from './serverTable';

/** The record: never the key, nor the uploaded text; whether that text is self-signed. */
function record(row: SslRow) {
  const { private_key: _key, certificate: _cert, renew: _renew, served: _served, ...rest } = row;
  return {
    ...rest,
    names: namesOf(row),
    force_https: row.force_https === 1,
    self_signed: row.type === 'custom' && selfSignedPem(row.certificate),
  };
}

const store = (ctx: HandlerContext) => new ManagedStore<SslRow>(ctx.app.db, 'sslcerts');

/**
 * The app the body names (`webapp_id`, loaded through the route's server by the request hook),
 * able to take a certificate: not on its way out, and none of its own yet.
 */
async function certifiable(ctx: HandlerContext, app: WebappRow): Promise<WebappRow> {
  if (app.status === 'deleting') throw fieldError('webapp_id', `No web app #${app.id} here`);
  const has = await store(ctx).find(ctx.server.id, 'webapp_id', app.id);
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

/**
 * Asks the server and answers the row (201/200, 202 while it waits, the refusal). A Let's
 * Encrypt issue or renewal takes a while (certbot asks the CA, which asks the domain): while the
 * server is online it is a task too, so the messages panel follows it and its end is pushed.
 */
async function settle(
  ctx: HandlerContext,
  row: SslRow,
  message: string,
  fresh: boolean,
  task?: { appName: string; step: string },
) {
  const { tasks } = ctx.app.services;
  const taskId =
    task && (await ctx.app.agents.isOnline(ctx.server.id))
      ? await tasks.create({
          userId: ctx.server.user_id,
          serverId: ctx.server.id,
          kind: 'certificate',
          name: task.appName,
        })
      : null;
  if (taskId && task) await tasks.addEvent(taskId, task.step, 5);
  const result = await converge(ctx.app, ctx.server, sslKind, row, 'apply', {
    message,
    actorId: actorOf(ctx),
  });
  if (taskId) {
    if (result.state === 'active') await tasks.finish(taskId, 'completed');
    else {
      const why =
        result.state === 'failed'
          ? result.error.message
          : 'The server went offline: the panel asks again when it is back';
      await tasks.addEvent(taskId, why, 5);
      await tasks.finish(taskId, 'failed');
    }
  }
  if (result.state === 'failed') {
    // A new certificate the server refused is not kept: the form shows why.
    if (fresh && result.error.statusCode === 400) await store(ctx).remove(row);
    throw result.error;
  }
  if (result.state === 'waiting') ctx.reply.code(202);
  return record(result.row);
}

const custom = defineManagedHandlers(sslcerts, sslKind, {
  async create(ctx, body) {
    const app = await certifiable(ctx, ctx.loaded.webapp_id);
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
      const body = ctx.body;
      const app = await certifiable(ctx, ctx.loaded.webapp_id);
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
      return settle(ctx, row, `Issue a Let's Encrypt certificate for web app ${app.name}`, true, {
        appName: app.name,
        step: `Asking Let's Encrypt for ${domainsOf(app).join(', ')}`,
      });
    },
    /** `PATCH letsencrypt/{certId}`: certbot renews now. */
    async renew(ctx) {
      const row = loadedChild(ctx.child);
      if (row.type !== 'letsencrypt')
        throw new HttpError(409, 'An uploaded certificate is replaced, not renewed');
      if (row.status === 'deleting') throw new HttpError(409, 'The certificate is being removed');
      const pending = await store(ctx).change(row, { renew: 1 });
      const app = await ctx.app.db
        .selectFrom('webapps')
        .select('name')
        .where('id', '=', row.webapp_id)
        .executeTakeFirst();
      return settle(ctx, pending, `Renew ${sslKind.noun(row)}`, false, {
        appName: app?.name ?? `#${row.webapp_id}`,
        step: `Asking Let's Encrypt to renew ${namesOf(row).join(', ')}`,
      });
    },
    /** The certificates that name the server's hostname (or the one asked). */
    async hostname(ctx) {
      const given = ctx.query.hostname;
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
  jobs: [renewalCheckJob, readBackJob],
  schedules: [renewalSchedule],
  handlers: [
    custom,
    defineManagedHandlers(appsslcerts, sslKind, {
      create: () => Promise.reject(new HttpError(405, 'Not here')),
      record,
    }),
  ],
});
