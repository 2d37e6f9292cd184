import type { HandlerContext } from '../../server/http/handlers';
import { HttpError, fieldError } from '../../server/http/errors';
import { defineHandlers, loadedChild, webappOf } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { converge } from '../../server/managed/converge';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { ManagedStore } from '../../server/managed/store';
import { whoOf } from '../../server/http/who';
import { loopTarget } from './forwards';
import { forwardGraph } from './serverForwardSet';
import { forwarderKind } from './serverForwarderKind';
import { forwarderHandlers } from './serverForwarders';
import { forwarderAccountHandlers } from './serverForwardersAccount';
import { forwardersMigration } from './serverForwardersTable';
import { authHandlers } from './serverAuth';
import { hashMailPassword } from './serverPassword';
import { type Mailbox, mailServer, mailUser } from './resource';
import { actorOf, removeAppMail } from './serverApp';
import { enable, mailEnabled, mailRow, preflight, stateOf } from './serverEnable';
import { addressOf, mailboxKind, targetsOf } from './serverKind';
import { type MailboxRow, migration } from './serverTables';
import { accountHandlers, autoresponderHandlers, loadMailbox } from './serverAutoresponders';
import { autorespondersMigration } from './serverAutorespondersTable';
import { webmailHandlers } from './serverWebmail';

const store = (ctx: HandlerContext) => new ManagedStore<MailboxRow>(ctx.app.db, 'mail_users');

const record = (row: MailboxRow): Mailbox => ({
  id: row.id,
  address: addressOf(row),
  local: row.local,
  domain: row.domain,
  quota_mb: row.quota_mb,
  forward_to: targetsOf(row),
  keep_copy: Boolean(row.keep_copy),
  status: row.status,
  error: row.error,
  error_field: row.error_field,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const domainsOfApp = (app: { domains: string }) => JSON.parse(app.domains) as string[];

export const server = defineServerFeature({
  migrations: {
    '0055_mail': migration,
    '0056_mail_autoresponders': autorespondersMigration,
    '0057_mail_forwarders': forwardersMigration,
  },
  // Mailboxes first: the sweeper makes a domain's mailboxes before the forwarders to them.
  managed: [mailboxKind, forwarderKind],
  children: { 'mail-autoresponder': loadMailbox, 'mail-webmail': loadMailbox },
  on: {
    /** The app's mailboxes and mail domains leave the server before its folder does. */
    'app.deleting': ({ ctx, app }) => removeAppMail(ctx, app),
  },
  handlers: [
    autoresponderHandlers,
    accountHandlers,
    forwarderHandlers,
    forwarderAccountHandlers,
    webmailHandlers,
    defineManagedHandlers(mailUser, mailboxKind, {
      async create(ctx, body) {
        const app = webappOf(ctx);
        if (app.status === 'deleting') throw new HttpError(409, 'The app is being removed');
        if (!(await mailEnabled(ctx.app.db, ctx.server.id)))
          throw new HttpError(409, 'Mail is not enabled on this server: enable it first');
        const domains = domainsOfApp(app);
        if (!domains.includes(body.domain))
          throw fieldError('domain', `One of the app's domains: ${domains.join(', ')}`);
        const same = await store(ctx).all(ctx.server.id, {
          domain: body.domain,
          local: body.local,
        });
        if (same.length) throw fieldError('local', `${body.local}@${body.domain} already exists`);
        const forwarder = await ctx.app.db
          .selectFrom('mail_forwarders')
          .select('id')
          .where('server_id', '=', ctx.server.id)
          .where('domain', '=', body.domain)
          .where('local', '=', body.local)
          .executeTakeFirst();
        if (forwarder)
          throw fieldError(
            'local',
            `${body.local}@${body.domain} is a forwarder: remove it first to make it a mailbox`,
          );
        return {
          local: body.local,
          domain: body.domain,
          quota_mb: body.quota_mb,
          password_hash: await hashMailPassword(body.password),
          forward_to: '[]',
          keep_copy: 1,
          delete_mail: 0,
        };
      },
      async update(ctx, body, row) {
        if (row.status === 'deleting') throw new HttpError(409, 'The mailbox is being removed');
        const values: Record<string, unknown> = {};
        if (body.password) values.password_hash = await hashMailPassword(body.password);
        if (body.quota_mb !== undefined) values.quota_mb = body.quota_mb;
        return values;
      },
      record,
      async deleting(ctx, row) {
        if (ctx.query.delete_mail !== 'true') return;
        await ctx.app.db
          .updateTable('mail_users')
          .set({ delete_mail: 1 })
          .where('id', '=', row.id)
          .where('server_id', '=', row.server_id)
          .execute();
      },
      actions: {
        async list(ctx) {
          const { domain, sync, ...query } = ctx.query;
          const page = await store(ctx).list(ctx.server.id, query, ['created_at', 'local'], {
            webapp_id: webappOf(ctx).id,
            ...(domain ? { domain } : {}),
          });
          const data = page.data.map(record);
          if (sync !== 'true') return { data, total: page.total };
          // `?sync=true`: the page's rows compared with the server's mailboxes (missing, changed).
          if (!(await ctx.app.agents.isOnline(ctx.server.id)))
            throw new HttpError(409, 'The server is offline: its agent is not connected');
          const drift = await mailboxKind.readBack!(
            (name, args) => ctx.app.agents.call(ctx.server.id, name, args),
            page.data,
            { db: ctx.app.db, box: ctx.app.services.box },
          );
          return {
            data: data.map((m) => ({ ...m, drift: drift.get(m.id) ?? null })),
            total: page.total,
          };
        },
        async forward(ctx) {
          const row = loadedChild(ctx.child);
          if (row.status === 'deleting') throw new HttpError(409, 'The mailbox is being removed');
          const address = addressOf(row);
          const targets = [...new Set(ctx.body.targets)];
          if (targets.includes(address))
            throw fieldError('targets', `${address} cannot forward to itself`);
          const graph = await forwardGraph(ctx.app.db, ctx.server.id, {
            table: 'mail_users',
            id: row.id,
          });
          const loop = loopTarget(address, targets, graph);
          if (loop)
            throw fieldError(
              'targets',
              `${loop} forwards back to ${address}: mail would go round in a loop`,
            );
          const changed = await store(ctx).change(row, {
            forward_to: JSON.stringify(targets),
            keep_copy: ctx.body.keep_copy ? 1 : 0,
          });
          const result = await converge(ctx.app, ctx.server, mailboxKind, changed, 'apply', {
            message: targets.length
              ? `Forward ${address} to ${targets.join(', ')}`
              : `Stop forwarding ${address}`,
            actorId: actorOf(ctx),
            who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
          });
          if (result.state === 'failed') throw result.error;
          if (result.state === 'waiting') ctx.reply.code(202);
          return record(result.row);
        },
      },
    }),
    defineHandlers(mailServer, {
      actions: {
        state: async (ctx) => stateOf(await mailRow(ctx.app.db, ctx.server.id)),
        preflight: (ctx) => preflight(ctx),
        enable: (ctx) => enable(ctx, ctx.body),
      },
    }),
    authHandlers,
  ],
});
