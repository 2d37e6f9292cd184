/**
 * The policies' routes (spec s.7 "Backups"): list, create, get with a page of files, change,
 * switch on or off; and the admin's list of a user's policies. The runs' routes (back up now,
 * restore, remove files, download) are the runs' code's (`runActions`, `fileActions`).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ServerRow } from '../../server/db/schema';
import { HttpError, fieldError, notFound } from '../../server/http/errors';
import type { ActionHandlers, ResourceHandlers } from '../../server/http/handlers';
import { pageOf } from '../../server/repositories/paging';
import { ManagedStore } from '../../server/managed/store';
import type { ManagedRow } from '../../server/managed/table';
import type { adminBackups, backups } from './resource';
import type { backupPolicyChange, backupPolicyInput } from './schemas';
import { reachablePolicies } from './serverLoaders';
import { keptCopies, toRestoreRecord } from './serverRestore';
import {
  filesOf,
  knownZone,
  syncSchedule,
  toPolicyRecord,
  toPolicyRecords,
  userZone,
} from './serverPolicies';
import type { BackupPolicyRow, BackupTargetRow } from './serverTables';

type Input = z.output<typeof backupPolicyInput>;
type Change = z.output<typeof backupPolicyChange>;

const stamp = (app: FastifyInstance) => new Date(app.services.clock()).toISOString();

/** The app or database the policy saves: one of the server's, or a 400 at the field. */
async function subjectOf(
  app: FastifyInstance,
  server: ServerRow,
  body: Pick<Input, 'type' | 'webapp_id' | 'database_id'>,
): Promise<{ webapp_id: number | null; database_id: number | null; subject: string }> {
  const field = body.type === 'webapp' ? 'webapp_id' : 'database_id';
  const id = body[field];
  const noun = body.type === 'webapp' ? 'web app' : 'database';
  if (!id) throw fieldError(field, `Pick the ${noun} to back up`);
  // The apps' and databases' own rows on that server (their managed kinds' tables).
  const row = await new ManagedStore<ManagedRow & { name: string }>(
    app.db,
    body.type === 'webapp' ? 'webapps' : 'databases',
  ).find(server.id, 'id', id);
  if (!row?.name) throw fieldError(field, `No such ${noun} on this server`);
  return body.type === 'webapp'
    ? { webapp_id: id, database_id: null, subject: row.name }
    : { webapp_id: null, database_id: id, subject: row.name };
}

/** One policy per subject and storage: a second would back up the same thing twice. */
async function refuseTwin(
  app: FastifyInstance,
  p: Pick<BackupPolicyRow, 'server_id' | 'type' | 'webapp_id' | 'database_id' | 'target_id'>,
  except?: number,
): Promise<void> {
  let query = app.db
    .selectFrom('backup_policies')
    .select('id')
    .where('server_id', '=', p.server_id)
    .where('type', '=', p.type);
  query =
    p.type === 'webapp'
      ? query.where('webapp_id', '=', p.webapp_id)
      : query.where('database_id', '=', p.database_id);
  query =
    p.target_id === null
      ? query.where('target_id', 'is', null)
      : query.where('target_id', '=', p.target_id);
  if (except !== undefined) query = query.where('id', '!=', except);
  if (await query.executeTakeFirst()) {
    const what = p.type === 'webapp' ? 'This app' : 'This database';
    throw new HttpError(409, `${what} already has a backup to that storage: change that one`);
  }
}

/** Why the policy cannot run again (its server, app or database gone), or null. */
async function subjectGone(app: FastifyInstance, policy: BackupPolicyRow): Promise<string | null> {
  const record = await toPolicyRecord(app, { ...policy, enabled: 0 });
  return record.paused_reason;
}

/** The time zone asked for, checked; the user's own when none. */
async function zoneOf(app: FastifyInstance, uid: number, asked: string | null | undefined) {
  if (!asked) return userZone(app.db, uid);
  if (!knownZone(asked)) throw fieldError('timezone', `Unknown time zone "${asked}"`);
  return asked;
}

/** Writes a policy's row and its schedule together. */
async function saved(app: FastifyInstance, id: number): Promise<BackupPolicyRow> {
  return app.db
    .selectFrom('backup_policies')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The settings of a policy's row a change may touch, from the validated body. */
function settingsOf(body: Change) {
  const out: Partial<BackupPolicyRow> = {};
  for (const key of [
    'frequency',
    'at',
    'weekday',
    'day',
    'keep_last',
    'keep_daily',
    'keep_weekly',
    'keep_monthly',
  ] as const)
    if (body[key] !== undefined) (out as Record<string, unknown>)[key] = body[key];
  if (body.excludes !== undefined) out.excludes = JSON.stringify(body.excludes);
  if (body.upload_limit_kib !== undefined) out.upload_limit_kib = body.upload_limit_kib ?? null;
  if (body.gentle !== undefined) out.gentle = body.gentle ? 1 : 0;
  if (body.enabled !== undefined) out.enabled = body.enabled ? 1 : 0;
  return out;
}

export const policyHandlers: Omit<ResourceHandlers<typeof backups>, 'actions'> = {
  async list(ctx) {
    let query = reachablePolicies(ctx.app.db, ctx.uid);
    if (ctx.query.type) query = query.where('backup_policies.type', '=', ctx.query.type);
    const page = await pageOf(query, ctx.query, ['created_at', 'subject']);
    return { total: page.total, data: await toPolicyRecords(ctx.app, page.data) };
  },

  async create(ctx) {
    const { app, body } = ctx;
    const server = ctx.loaded.server_id;
    const target: BackupTargetRow | undefined = ctx.loaded.target_id;
    const subject = await subjectOf(app, server, body);
    const timezone = await zoneOf(app, ctx.uid, body.timezone);
    const values = {
      user_id: ctx.uid,
      server_id: server.id,
      type: body.type,
      ...subject,
      target_id: target?.id ?? null,
      frequency: body.frequency,
      at: body.at,
      weekday: body.weekday,
      day: body.day,
      timezone,
      keep_last: body.keep_last,
      keep_daily: body.keep_daily,
      keep_weekly: body.keep_weekly,
      keep_monthly: body.keep_monthly,
      excludes: JSON.stringify(body.type === 'webapp' ? body.excludes : []),
      upload_limit_kib: body.upload_limit_kib ?? null,
      gentle: body.gentle ? 1 : 0,
      enabled: body.enabled ? 1 : 0,
      created_at: stamp(app),
      updated_at: stamp(app),
    };
    await refuseTwin(app, values);
    const id = await app.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('backup_policies')
        .values(values)
        .returningAll()
        .executeTakeFirstOrThrow();
      await syncSchedule(app, row, trx);
      return row.id;
    });
    ctx.reply.code(201);
    return toPolicyRecord(app, await saved(app, id));
  },

  async get(ctx) {
    const { files, total } = await filesOf(ctx.app.db, ctx.child.id, {
      page: ctx.query.page ?? 1,
      perPage: ctx.query.perPage ?? 25,
    });
    const restores = (await keptCopies(ctx.app, ctx.child.id)).map(toRestoreRecord);
    return {
      ...(await toPolicyRecord(ctx.app, ctx.child)),
      files,
      files_total: total,
      restores,
    };
  },

  async update(ctx) {
    const { app, body } = ctx;
    const policy = ctx.child;
    const changes: Partial<BackupPolicyRow> = settingsOf(body);
    if (body.timezone !== undefined) changes.timezone = await zoneOf(app, ctx.uid, body.timezone);
    if (body.target_id !== undefined) {
      changes.target_id = ctx.loaded.target_id?.id ?? null;
      await refuseTwin(app, { ...policy, target_id: changes.target_id }, policy.id);
    }
    if (body.excludes !== undefined && policy.type === 'database' && body.excludes.length)
      throw fieldError('excludes', 'A database backup has no files to exclude');
    const gone = body.enabled ? await subjectGone(app, policy) : null;
    if (gone) throw fieldError('enabled', `${gone}: the backup cannot run again`);
    await app.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('backup_policies')
        .set({ ...changes, updated_at: stamp(app) })
        .where('id', '=', policy.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await syncSchedule(app, row, trx);
    });
    return toPolicyRecord(app, await saved(app, policy.id));
  },
};

/** PATCH manage-backups/{backupId}: the schedule on or off; the files stay either way. */
export const policyActions: Pick<ActionHandlers<typeof backups>, 'toggle'> = {
  async toggle(ctx) {
    const { app } = ctx;
    const policy = ctx.child!;
    if (ctx.body.enabled) {
      const gone = await subjectGone(app, policy);
      if (gone) throw new HttpError(409, `${gone}: the backup cannot run again`);
    }
    await app.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('backup_policies')
        .set({ enabled: ctx.body.enabled ? 1 : 0, updated_at: stamp(app) })
        .where('id', '=', policy.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await syncSchedule(app, row, trx);
    });
    return toPolicyRecord(app, await saved(app, policy.id));
  },
};

/** GET admin/backups?uid=&type=: the policies a user made. */
export const adminListAction: Pick<ActionHandlers<typeof adminBackups>, 'list'> = {
  async list(ctx) {
    const { app } = ctx;
    if (!(await app.services.users.findById(ctx.query.uid))) throw notFound('No such user');
    let query = app.db
      .selectFrom('backup_policies')
      .selectAll()
      .where('user_id', '=', ctx.query.uid);
    if (ctx.query.type) query = query.where('type', '=', ctx.query.type);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return { data: await toPolicyRecords(app, rows), total: rows.length };
  },
};
