/**
 * Forwarders and catch-alls of an app's mail domains (forwardersResource.ts): checked by the
 * panel (the app's domain, mail on, no mailbox of the address, no loop across the server's
 * mailboxes, forwarders and catch-alls), kept as managed rows and sent to the server in the
 * domain's whole forward set; queued while it is offline, as a mailbox's forwarding is.
 */
import type { HandlerContext } from '../../server/http/handlers';
import { HttpError, fieldError } from '../../server/http/errors';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { ManagedStore } from '../../server/managed/store';
import { whoOf } from '../../server/http/who';
import { loopTarget } from './forwards';
import { mailForwarder } from './forwardersResource';
import { actorOf } from './serverApp';
import { mailEnabled } from './serverEnable';
import { type Except, forwardGraph } from './serverForwardSet';
import { forwarderAddress, forwarderKind } from './serverForwarderKind';
import { forwarderRecords } from './serverForwardersAccount';
import { CATCH_ALL, type ForwarderRow } from './serverForwardersTable';

const store = (ctx: HandlerContext) =>
  new ManagedStore<ForwarderRow>(ctx.app.db, 'mail_forwarders');

interface App {
  id: number;
  status: string;
  domains: string;
}

/** The app takes mail on `domain`: not being removed, mail on its server, its own domain. */
async function usable(ctx: HandlerContext, app: App, domain: string): Promise<void> {
  if (app.status === 'deleting') throw new HttpError(409, 'The app is being removed');
  if (!(await mailEnabled(ctx.app.db, ctx.server.id)))
    throw new HttpError(409, 'Mail is not enabled on this server: enable it first');
  const domains = JSON.parse(app.domains) as string[];
  if (!domains.includes(domain))
    throw fieldError('domain', `One of the app's domains: ${domains.join(', ')}`);
}

/** A forwarder's address is no mailbox's and no other forwarder's on the server. */
export async function addressFree(ctx: HandlerContext, domain: string, local: string) {
  const address = `${local}@${domain}`;
  const box = await ctx.app.db
    .selectFrom('mail_users')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .where('domain', '=', domain)
    .where('local', '=', local)
    .executeTakeFirst();
  if (box) throw fieldError('local', `${address} is a mailbox: it forwards from its own page`);
  const [held] = await store(ctx).all(ctx.server.id, { domain, local });
  if (held?.status === 'deleting')
    throw new HttpError(409, `The forwarder ${address} is being removed: add it once it is gone`);
  if (held) throw fieldError('local', `${address} already exists`);
}

/** The targets, each once; none the address itself, none leading back to it. */
async function checkedTargets(
  ctx: HandlerContext,
  address: string,
  targets: readonly string[],
  except?: Except,
): Promise<string[]> {
  const list = [...new Set(targets)];
  if (list.includes(address)) throw fieldError('targets', `${address} cannot forward to itself`);
  const loop = loopTarget(address, list, await forwardGraph(ctx.app.db, ctx.server.id, except));
  if (!loop) return list;
  throw fieldError(
    'targets',
    address.startsWith('@')
      ? `${loop} leads back to the catch-all of ${address.slice(1)} (an address with no mailbox or forwarder falls to it): mail would go round in a loop`
      : `${loop} forwards back to ${address}: mail would go round in a loop`,
  );
}

const except = (row: ForwarderRow): Except => ({ table: 'mail_forwarders', id: row.id });

async function answer(ctx: HandlerContext, row: ForwarderRow) {
  const [record] = await forwarderRecords(ctx.app.db, [row]);
  return record!;
}

export const forwarderHandlers = defineManagedHandlers(mailForwarder, forwarderKind, {
  async create(ctx, body) {
    const app = ctx.loaded.wsid;
    await usable(ctx, app, body.domain);
    await addressFree(ctx, body.domain, body.local);
    const targets = await checkedTargets(ctx, `${body.local}@${body.domain}`, body.targets);
    return {
      webapp_id: app.id,
      local: body.local,
      domain: body.domain,
      targets: JSON.stringify(targets),
    };
  },
  async update(ctx, body, row) {
    if (row.status === 'deleting') throw new HttpError(409, 'The forwarder is being removed');
    const targets = await checkedTargets(ctx, forwarderAddress(row), body.targets, except(row));
    return { targets: JSON.stringify(targets) };
  },
  // `records` answers (with the server's and app's names); this one only for the type.
  record: (row) => row,
  records: (ctx, rows) => forwarderRecords(ctx.app.db, rows),
  actions: {
    async setCatchAll(ctx) {
      const app = ctx.loaded.wsid;
      const { domain } = ctx.body;
      await usable(ctx, app, domain);
      const [held] = await store(ctx).all(ctx.server.id, { domain, local: CATCH_ALL });
      if (held?.status === 'deleting')
        throw new HttpError(409, `The catch-all of ${domain} is being removed: set it once gone`);
      if (held && held.webapp_id !== app.id)
        throw fieldError('domain', `${domain} has mail of another app on this server`);
      const targets = JSON.stringify(
        await checkedTargets(ctx, `@${domain}`, ctx.body.targets, held && except(held)),
      );
      const row = held
        ? await store(ctx).change(held, { targets })
        : await store(ctx).insert(ctx.server.id, {
            webapp_id: app.id,
            local: CATCH_ALL,
            domain,
            targets,
          });
      const result = await converge(ctx.app, ctx.server, forwarderKind, row, 'apply', {
        message: forwarderKind.says!('create', row)!,
        actorId: actorOf(ctx),
        who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      });
      if (result.state === 'failed') {
        // The server refused the input itself: a new catch-all is not kept.
        if (!held && result.error.statusCode === 400) await store(ctx).remove(row);
        throw result.error;
      }
      if (result.state === 'waiting') ctx.reply.code(202);
      return answer(ctx, result.row);
    },
    async removeCatchAll(ctx) {
      const { domain } = ctx.query;
      const [held] = await store(ctx).all(ctx.server.id, {
        domain,
        local: CATCH_ALL,
        webapp_id: ctx.loaded.wsid.id,
      });
      if (!held) throw new HttpError(404, `${domain} has no catch-all`);
      const row = await store(ctx).change(held, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, forwarderKind, row, 'remove', {
        message: `Delete the catch-all of ${domain}`,
        actorId: actorOf(ctx),
        who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      });
      if (result.state === 'failed') throw result.error;
      if (result.state === 'waiting') ctx.reply.code(202);
      return { id: row.id, status: result.state === 'removed' ? 'deleted' : result.row.status };
    },
  },
});
