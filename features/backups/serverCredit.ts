/**
 * Backup credit: the allowance on the panel's own storage (the sum of the ledger's lines), what
 * the account's kept files use there (metered daily by `backups.meter`), and the routes: the
 * user's view, an admin setting it, and the admin's add/remove with a reason.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { fieldError, forbidden, notFound } from '../../server/http/errors';
import type { ActionHandlers } from '../../server/http/handlers';
import { planBackupBytesOf } from '../plans/serverApi';
import { BACKUPS_METER_JOB } from './jobNames';
import type { adminBackups, backupCredit } from './resource';
import { DEFAULT_CREDIT_BYTES, GB, type backupCreditSchema } from './schemas';

type Credit = z.infer<typeof backupCreditSchema>;

const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();
const gbText = (bytes: number) => `${Number((bytes / GB).toFixed(2))} GB`;
/** GB, or MB below a tenth of one (a small credit would read "0 GB of 0 GB"). */
const sizeWords = (bytes: number) =>
  bytes >= GB / 10 ? gbText(bytes) : `${Number((bytes / 1024 ** 2).toFixed(1))} MB`;

/**
 * The user's credit in bytes: the default allowance and the ledger's sum. The default is what
 * the user's plan gives (features/plans: `backup_storage_gb`), or DEFAULT_CREDIT_BYTES when the
 * plan sets none; a change of plan moves it, and the admins' lines stay on top of it.
 */
export async function creditOf(app: FastifyInstance, uid: number): Promise<number> {
  const [row, fromPlan] = await Promise.all([
    app.db
      .selectFrom('backup_credit_ledger')
      .select((eb) => eb.fn.sum<number | string | null>('delta_bytes').as('bytes'))
      .where('user_id', '=', uid)
      .executeTakeFirst(),
    planBackupBytesOf(app.db, uid),
  ]);
  return (fromPlan ?? DEFAULT_CREDIT_BYTES) + Number(row?.bytes ?? 0);
}

/** What the user's kept files use on the panel's storage, as last metered. */
export async function usageOf(
  app: FastifyInstance,
  uid: number,
): Promise<{ used_bytes: number; metered_at: string | null }> {
  const row = await app.db
    .selectFrom('backup_usage')
    .selectAll()
    .where('user_id', '=', uid)
    .executeTakeFirst();
  return { used_bytes: Number(row?.used_bytes ?? 0), metered_at: row?.metered_at ?? null };
}

export async function creditView(app: FastifyInstance, uid: number): Promise<Credit> {
  const [credit_bytes, usage, ledger] = await Promise.all([
    creditOf(app, uid),
    usageOf(app, uid),
    app.db
      .selectFrom('backup_credit_ledger')
      .select(['id', 'delta_bytes', 'reason', 'by', 'created_at'])
      .where('user_id', '=', uid)
      .orderBy('id', 'desc')
      .limit(200)
      .execute(),
  ]);
  return {
    credit_bytes,
    ...usage,
    ledger: ledger.map((l) => ({ ...l, delta_bytes: Number(l.delta_bytes) })),
  };
}

/**
 * The account's credit, use and one page of its ledger, newest first (the admin area's credit
 * history): the ledger's own index on `user_id` serves the page and the count.
 */
export async function creditLedgerPage(
  app: FastifyInstance,
  uid: number,
  page: { page: number; perPage: number },
): Promise<Omit<Credit, 'ledger'> & { data: Credit['ledger']; total: number }> {
  const lines = app.db.selectFrom('backup_credit_ledger').where('user_id', '=', uid);
  const [credit_bytes, usage, rows, counted] = await Promise.all([
    creditOf(app, uid),
    usageOf(app, uid),
    lines
      .select(['id', 'delta_bytes', 'reason', 'by', 'created_at'])
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    lines.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return {
    credit_bytes,
    ...usage,
    data: rows.map((l) => ({ ...l, delta_bytes: Number(l.delta_bytes) })),
    total: Number(counted?.n ?? 0),
  };
}

/** A ledger line (no line for a change of nothing). */
async function addLine(
  app: FastifyInstance,
  line: { uid: number; delta: number; reason: string; by: string; adminId: number | null },
): Promise<void> {
  if (line.delta === 0) return;
  await app.db
    .insertInto('backup_credit_ledger')
    .values({
      user_id: line.uid,
      delta_bytes: line.delta,
      reason: line.reason,
      by: line.by,
      admin_id: line.adminId,
      created_at: stamp(app),
    })
    .execute();
}

export const creditActions: ActionHandlers<typeof backupCredit> = {
  /** GET backup-credit/users/{uid}: the user, an admin, or staff. */
  async get(ctx) {
    return creditView(ctx.app, ctx.uid);
  },
  /** POST backup-credit/users/{uid}?credit=: only an admin (not acting as the user). */
  async set(ctx) {
    const caller = ctx.caller!;
    if (!caller.isAdmin || caller.actorId !== null)
      throw forbidden('Only an admin sets backup credit');
    const target = Math.round(ctx.query.credit * GB);
    const delta = target - (await creditOf(ctx.app, ctx.uid));
    await addLine(ctx.app, {
      uid: ctx.uid,
      delta,
      reason: `Credit set to ${gbText(target)}`,
      by: caller.row.user_name,
      adminId: caller.id,
    });
    return creditView(ctx.app, ctx.uid);
  },
};

/** PATCH admin/backup-credit?uid=&type=add|remove: bytes with a reason, the admin's name. */
export const adminCreditAction: Pick<ActionHandlers<typeof adminBackups>, 'credit'> = {
  async credit(ctx) {
    const { app } = ctx;
    const uid = ctx.query.uid;
    if (!(await app.services.users.findById(uid))) throw notFound('No such user');
    const bytes = Math.round(ctx.body.gb * GB);
    let delta = bytes;
    if (ctx.query.type === 'remove') {
      const credit = await creditOf(app, uid);
      if (bytes > credit)
        throw fieldError('gb', `The user has ${gbText(credit)} of credit: remove at most that`);
      delta = -bytes;
    }
    const caller = ctx.caller!;
    await addLine(app, {
      uid,
      delta,
      reason: ctx.body.reason,
      by: caller.row.user_name,
      adminId: caller.id,
    });
    return creditView(app, uid);
  },
};

/**
 * The daily metering: each panel-storage repository's bytes, summed per account (a store's
 * `user_id`) into `backup_usage`; an account with none left is metered at 0.
 */
export async function meterUsage(app: FastifyInstance): Promise<Map<number, number>> {
  const stores = await app.db
    .selectFrom('backup_stores')
    .select(['user_id', 'repository_uuid'])
    .where('repository_uuid', 'is not', null)
    .execute();
  const used = new Map<number, number>();
  for (const store of stores) {
    const bytes = await app.services.backupRepositories.meter(store.repository_uuid!);
    used.set(store.user_id, (used.get(store.user_id) ?? 0) + bytes);
  }
  const before = await app.db.selectFrom('backup_usage').select('user_id').execute();
  for (const { user_id } of before) if (!used.has(user_id)) used.set(user_id, 0);
  const at = stamp(app);
  for (const [user_id, used_bytes] of used) {
    await app.db
      .insertInto('backup_usage')
      .values({ user_id, used_bytes, metered_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ used_bytes, metered_at: at }))
      .execute();
  }
  return used;
}

export const meterJob = defineJob({
  name: BACKUPS_METER_JOB,
  payload: z.object({}),
  retry: { limit: 2, backoffSeconds: 300 },
  timeoutSeconds: 3600,
  concurrency: 1,
  async handler({ app }) {
    const used = await meterUsage(app);
    return { accounts: used.size };
  },
});

export const meterSchedule = defineSchedule({
  name: 'backups.meter-daily',
  cron: '40 2 * * *',
  job: meterJob,
  payload: {},
});

/**
 * Why a run to the panel's storage may not start: the account's metered use is at or over its
 * credit (in words for the run's row), or null. S3 and SFTP storages are never limited by it.
 */
export async function panelStorageFull(app: FastifyInstance, uid: number): Promise<string | null> {
  const [credit, { used_bytes: used }] = await Promise.all([creditOf(app, uid), usageOf(app, uid)]);
  if (used < credit) return null;
  return `Your backup storage is full: ${sizeWords(used)} of ${sizeWords(credit)} used. Delete old backups or ask for more credit`;
}
