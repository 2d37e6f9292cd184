/**
 * The account-wide email calls: a mailbox's autoresponder (sent to its server at once, kept
 * once the server has it), every mailbox of the account, and the mail domains' disk use.
 */
import type { z } from 'zod';
import type { Db } from '../../server/db/database';
import type { ChildLoader } from '../../server/http/children';
import { HttpError } from '../../server/http/errors';
import { type HandlerContext, defineHandlers, loadedChild } from '../../server/http/handlers';
import { ManagedStore } from '../../server/managed/store';
import { visibleServerIds } from '../../server/repositories/servers';
import {
  type AccountMailbox,
  type DomainUsage,
  type autoresponderInput,
  mailAccount,
  mailAutoresponder,
} from './autorespondersResource';
import { addressOf } from './serverKind';
import type { MailboxRow } from './serverTables';

declare module '../../server/http/children' {
  interface FeatureChildRows {
    'mail-autoresponder': MailboxRow;
  }
}

/** `{mid}` of the autoresponder calls: a mailbox of that server only. */
export const loadMailbox: ChildLoader<MailboxRow> = (db, server, value) =>
  new ManagedStore<MailboxRow>(db, 'mail_users').find(server.id, 'id', value);

/** The account's mailboxes with their server, app and autoresponder. */
function mailboxes(db: Db, uid: number) {
  return db
    .selectFrom('mail_users')
    .innerJoin('servers', 'servers.id', 'mail_users.server_id')
    .innerJoin('webapps', 'webapps.id', 'mail_users.webapp_id')
    .leftJoin('mail_autoresponders', 'mail_autoresponders.mail_user_id', 'mail_users.id')
    .where('mail_users.server_id', 'in', visibleServerIds(db, uid))
    .where('mail_users.status', '!=', 'deleting');
}

type Joined = {
  id: number;
  local: string;
  domain: string;
  quota_mb: number;
  status: string;
  server_id: number;
  server_name: string;
  webapp_id: number;
  webapp_name: string;
  subject: string | null;
  body: string | null;
  starts: string | null;
  ends: string | null;
  days: number | null;
  auto_updated_at: string | null;
};

const columns = [
  'mail_users.id',
  'mail_users.local',
  'mail_users.domain',
  'mail_users.quota_mb',
  'mail_users.status',
  'mail_users.server_id',
  'servers.name as server_name',
  'mail_users.webapp_id',
  'webapps.name as webapp_name',
  'mail_autoresponders.subject',
  'mail_autoresponders.body',
  'mail_autoresponders.starts',
  'mail_autoresponders.ends',
  'mail_autoresponders.days',
  'mail_autoresponders.updated_at as auto_updated_at',
] as const;

const record = (r: Joined): AccountMailbox => ({
  id: r.id,
  address: addressOf(r),
  domain: r.domain,
  quota_mb: r.quota_mb,
  status: r.status,
  server_id: r.server_id,
  server_name: r.server_name,
  webapp_id: r.webapp_id,
  webapp_name: r.webapp_name,
  autoresponder:
    r.subject === null
      ? null
      : {
          subject: r.subject,
          body: r.body ?? '',
          starts: r.starts,
          ends: r.ends,
          days: r.days ?? 1,
          updated_at: r.auto_updated_at ?? '',
        },
});

async function one(ctx: HandlerContext, id: number): Promise<AccountMailbox> {
  const row = await mailboxes(ctx.app.db, ctx.uid)
    .select(columns)
    .where('mail_users.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'No such mailbox');
  return record(row);
}

/** The server takes the autoresponder (or its removal) first: the panel keeps only what it has. */
async function send(
  ctx: HandlerContext,
  row: MailboxRow,
  vacation: z.output<typeof autoresponderInput> | null,
): Promise<void> {
  if (row.status === 'deleting') throw new HttpError(409, 'The mailbox is being removed');
  if (!(await ctx.app.agents.isOnline(ctx.server.id)))
    throw new HttpError(409, 'The server is offline: its agent is not connected');
  await ctx.app.agents.call(ctx.server.id, 'mail.vacation.set', {
    domain: row.domain,
    local: row.local,
    vacation: vacation && { local: row.local, ...vacation },
  });
}

async function usage(ctx: HandlerContext): Promise<DomainUsage[]> {
  const rows = await mailboxes(ctx.app.db, ctx.uid)
    .select(columns)
    .orderBy('mail_users.domain')
    .orderBy('mail_users.local')
    .execute();
  const groups = new Map<string, Joined[]>();
  for (const r of rows) {
    const key = `${r.server_id} ${r.domain}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  // One server's silence does not hide the others' answers: each domain says its own error.
  return Promise.all(
    [...groups.values()].map(async (list): Promise<DomainUsage> => {
      const { server_id, server_name, domain } = list[0] as Joined;
      let error: string | null = null;
      let held = new Map<string, number>();
      try {
        const used = await ctx.app.agents.call(server_id, 'mail.usage', { domain });
        held = new Map(used.map((u) => [u.local, u.bytes]));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const boxes = list.map((r) => ({
        address: addressOf(r),
        bytes: error ? null : (held.get(r.local) ?? 0),
        quota_mb: r.quota_mb,
      }));
      const total = error ? null : boxes.reduce((n, b) => n + (b.bytes ?? 0), 0);
      return { domain, server_id, server_name, error, mailboxes: boxes, total_bytes: total };
    }),
  );
}

export const autoresponderHandlers = defineHandlers(mailAutoresponder, {
  actions: {
    get: (ctx) => one(ctx, loadedChild(ctx.child).id),
    async set(ctx) {
      const row = loadedChild(ctx.child);
      await send(ctx, row, ctx.body);
      const values = { ...ctx.body, updated_at: new Date().toISOString() };
      await ctx.app.db
        .insertInto('mail_autoresponders')
        .values({ mail_user_id: row.id, ...values })
        .onConflict((oc) => oc.column('mail_user_id').doUpdateSet(values))
        .execute();
      return one(ctx, row.id);
    },
    async remove(ctx) {
      const row = loadedChild(ctx.child);
      await send(ctx, row, null);
      await ctx.app.db
        .deleteFrom('mail_autoresponders')
        .where('mail_user_id', '=', row.id)
        .execute();
      return one(ctx, row.id);
    },
  },
});

export const accountHandlers = defineHandlers(mailAccount, {
  actions: {
    async list(ctx) {
      const { page, perPage } = ctx.query;
      const [rows, count] = await Promise.all([
        mailboxes(ctx.app.db, ctx.uid)
          .select(columns)
          .orderBy('mail_users.domain', 'asc')
          .orderBy('mail_users.local', 'asc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        mailboxes(ctx.app.db, ctx.uid)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map(record), total: Number(count.n) };
    },
    usage,
  },
});
