/**
 * A restore (`backups.restore`, keyed per request): a file's (run's) snapshot back into its app
 * or database (`replace`: restored beside it, checked, swapped in), into another app or database
 * of any server the user reaches (`new`: the op runs on that server with the same repository,
 * the panel holds the keys), or one path of an app (`path`). A task of kind `restore` shows the
 * op's progress; an offline server is retried, the op's own failure ends the task with its words.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from '../../server/agents/hub';
import { HttpError } from '../../server/http/errors';
import { defineJob } from '../../server/jobs/define';
import type { JobContext } from '../../server/jobs/types';
import { visibleServerIds } from '../../server/repositories/servers';
import type { BackupRestore, RestoreKind, restoreInput } from './schemas';
import type { BackupRestoreRow } from './serverRestoreTables';
import type { BackupFileRow } from './serverLoaders';
import { existingStore } from './serverRunStore';

export const BACKUPS_RESTORE_JOB = 'backups.restore';

const restorePayload = z.object({
  run_id: z.number().int().positive(),
  task_id: z.number().int().positive(),
  /** The server the op runs on (the destination's). */
  server_id: z.number().int().positive(),
  op: z.discriminatedUnion('name', [
    z.object({
      name: z.literal('backups.restore-files'),
      mode: z.enum(['replace', 'path']),
      sys_user: z.string(),
      app: z.string(),
      path: z.string().nullable(),
    }),
    z.object({
      name: z.literal('backups.restore-database'),
      source: z.string(),
      database: z.string(),
    }),
  ]),
});
type RestorePayload = z.output<typeof restorePayload>;

async function endTask(app: FastifyInstance, taskId: number, error: string | null) {
  const { tasks } = app.services;
  const task = await tasks.find(taskId);
  if (!task || task.status !== 'running') return;
  const code = (await tasks.events(taskId)).at(-1)?.code ?? 0;
  await tasks.addEvent(taskId, error ?? 'Done', error ? code : 10);
  await tasks.finish(taskId, error ? 'failed' : 'completed');
}

async function handler(ctx: JobContext, p: RestorePayload) {
  const { app } = ctx;
  const run = await app.db
    .selectFrom('backup_runs')
    .innerJoin('backup_policies', 'backup_policies.id', 'backup_runs.backup_id')
    .select([
      'backup_runs.backup_id',
      'backup_runs.snapshot_id',
      'backup_runs.removed',
      'backup_policies.server_id',
      'backup_policies.target_id',
      'backup_policies.user_id',
    ])
    .where('backup_runs.id', '=', p.run_id)
    .executeTakeFirst();
  if (!run?.snapshot_id || run.removed)
    return endTask(app, p.task_id, 'This backup file was deleted before it could be restored');
  const store = await existingStore(app, run).catch((e: Error) => e);
  if (!store || store instanceof Error)
    return endTask(app, p.task_id, store?.message ?? 'This backup has no storage');
  const { tasks } = app.services;
  let writing = Promise.resolve();
  const onProgress = (e: { event: string; code: number }) => {
    writing = writing.then(() => tasks.addEvent(p.task_id, e.event, e.code));
  };
  /** What the swap kept, until the user keeps the restore (its policy's page names it). */
  const kept = async (kind: RestoreKind, previous: string | null, sysUser: string | null) => {
    if (!previous) return;
    const task = await tasks.find(p.task_id);
    await app.db
      .insertInto('backup_restores')
      .values({
        user_id: task?.user_id ?? run.user_id,
        backup_id: run.backup_id,
        run_id: p.run_id,
        server_id: p.server_id,
        kind,
        sys_user: sysUser,
        previous,
        state: 'kept',
        created_at: new Date(app.services.clock()).toISOString(),
        dropped_at: null,
      })
      .execute();
  };
  try {
    if (p.op.name === 'backups.restore-files') {
      const done = await app.agents.call(
        p.server_id,
        'backups.restore-files',
        {
          target: store.target,
          snapshot: run.snapshot_id,
          mode: p.op.mode,
          sys_user: p.op.sys_user,
          app: p.op.app,
          path: p.op.path,
        },
        { onProgress },
      );
      await writing;
      await kept('files', done.previous, p.op.sys_user);
      await tasks.addEvent(
        p.task_id,
        `Restored ${done.files} files${done.previous ? `; the previous files are kept in ${done.previous}` : ''}`,
        9,
      );
    } else {
      const done = await app.agents.call(
        p.server_id,
        'backups.restore-database',
        {
          target: store.target,
          snapshot: run.snapshot_id,
          source: p.op.source,
          database: p.op.database,
        },
        { onProgress },
      );
      await writing;
      await kept('database', done.previous, null);
      await tasks.addEvent(
        p.task_id,
        `Restored ${done.tables} tables${done.previous ? `; the previous tables are kept in ${done.previous}` : ''}`,
        9,
      );
    }
  } catch (err) {
    await writing;
    if (err instanceof AgentOfflineError || err instanceof AgentTimeoutError) {
      if (ctx.lastAttempt) return endTask(app, p.task_id, `${err.message}: nothing was restored`);
      await tasks.addEvent(p.task_id, `${err.message}; trying again later`, 0);
      throw err;
    }
    if (!(err instanceof AgentOpError)) app.log.error({ err }, 'restore failed');
    return endTask(
      app,
      p.task_id,
      err instanceof AgentOpError ? err.message : 'The restore failed',
    );
  }
  await endTask(app, p.task_id, null);
}

export const restoreJob = defineJob({
  name: BACKUPS_RESTORE_JOB,
  payload: restorePayload,
  retry: { limit: 5, backoffSeconds: 60 },
  timeoutSeconds: 13 * 3600,
  concurrency: 2,
  keyed: true,
  handler,
});

type RestoreBody = z.output<typeof restoreInput>;

const conflict = (words: string) => new HttpError(409, words);

/**
 * PATCH restore-backups: checks what and where, makes the task and enqueues the restore (keyed by
 * its task: one restore per request).
 */
export async function startRestore(
  app: FastifyInstance,
  uid: number,
  file: BackupFileRow,
  body: RestoreBody,
): Promise<{ task_id: number }> {
  const policy = file.policy;
  if (!file.snapshot_id || file.removed || (file.status !== 'ok' && file.status !== 'partial'))
    throw conflict('This backup file holds no snapshot to restore');
  const reachable = visibleServerIds(app.db, uid);
  let serverId = policy.server_id;
  let op: RestorePayload['op'];
  let name: string;
  if (policy.type === 'webapp') {
    if (body.to_database_id) throw conflict('A web app backup restores into a web app');
    if (body.mode === 'path' && !body.path) throw conflict('Name the path to restore');
    const appId = body.mode === 'new' ? body.to_webapp_id : policy.webapp_id;
    if (!appId) throw conflict('Pick the web app to restore into');
    let query = app.db
      .selectFrom('webapps')
      .select(['id', 'name', 'sys_user', 'server_id'])
      .where('id', '=', appId)
      .where('server_id', 'in', reachable);
    if (body.mode !== 'new') query = query.where('server_id', '=', policy.server_id);
    const webapp = await query.executeTakeFirst();
    if (!webapp)
      throw conflict(
        body.mode === 'new' ? 'No such web app on your servers' : 'The web app no longer exists',
      );
    serverId = webapp.server_id;
    name = webapp.name;
    op = {
      name: 'backups.restore-files',
      mode: body.mode === 'path' ? 'path' : 'replace',
      sys_user: webapp.sys_user,
      app: webapp.name,
      path: body.mode === 'path' ? (body.path ?? null) : null,
    };
  } else {
    if (body.mode === 'path') throw conflict('A path is restored from a web app backup only');
    if (body.to_webapp_id) throw conflict('A database backup restores into a database');
    const dbId = body.mode === 'new' ? body.to_database_id : policy.database_id;
    if (!dbId) throw conflict('Pick the database to restore into');
    let query = app.db
      .selectFrom('databases')
      .select(['id', 'name', 'server_id'])
      .where('id', '=', dbId)
      .where('server_id', 'in', reachable);
    if (body.mode !== 'new') query = query.where('server_id', '=', policy.server_id);
    const database = await query.executeTakeFirst();
    if (!database)
      throw conflict(
        body.mode === 'new' ? 'No such database on your servers' : 'The database no longer exists',
      );
    serverId = database.server_id;
    name = database.name;
    op = { name: 'backups.restore-database', source: policy.subject, database: database.name };
  }
  const taskId = await app.services.tasks.create({
    userId: uid,
    serverId,
    kind: 'restore',
    name,
  });
  await app.services.tasks.addEvent(taskId, 'Waiting to start', 0);
  await app.jobs.enqueue(
    restoreJob,
    { run_id: file.id, task_id: taskId, server_id: serverId, op },
    { key: `backups.restore:${taskId}` },
  );
  return { task_id: taskId };
}

/**
 * PATCH keep-restores/{backupId}: the restore is kept, so the previous copy it kept goes
 * (`backups.drop-previous` on the copy's server). Idempotent: a copy dropped already, or gone
 * from the server, is answered `dropped`. An offline server is a 409 and the copy stays.
 */
export async function keepRestore(
  app: FastifyInstance,
  uid: number,
  policy: { id: number },
  restoreId: number,
): Promise<BackupRestoreRow> {
  const row = await app.db
    .selectFrom('backup_restores')
    .selectAll()
    .where('id', '=', restoreId)
    .where('backup_id', '=', policy.id)
    .where('server_id', 'in', visibleServerIds(app.db, uid))
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'No such restore');
  if (row.state === 'dropped') return row;
  try {
    await app.agents.call(
      row.server_id,
      'backups.drop-previous',
      row.kind === 'files'
        ? { sys_user: row.sys_user, folder: row.previous, database: null }
        : { sys_user: null, folder: null, database: row.previous },
    );
  } catch (err) {
    const what = row.kind === 'files' ? 'previous files' : 'previous database';
    if (err instanceof AgentOfflineError || err instanceof AgentTimeoutError)
      throw conflict(`${err.message}: the ${what} stay until it is back; try again then`);
    if (err instanceof AgentOpError) throw conflict(err.message);
    throw err;
  }
  return app.db
    .updateTable('backup_restores')
    .set({ state: 'dropped', dropped_at: new Date(app.services.clock()).toISOString() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The previous copies the policy's restores still keep, newest first. */
export function keptCopies(app: FastifyInstance, backupId: number) {
  return app.db
    .selectFrom('backup_restores')
    .selectAll()
    .where('backup_id', '=', backupId)
    .where('state', '=', 'kept')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A restore record as the API shows it (no system user: the folder names it). */
export function toRestoreRecord(row: BackupRestoreRow): BackupRestore {
  return {
    id: row.id,
    backup_id: row.backup_id,
    run_id: row.run_id,
    server_id: row.server_id,
    kind: row.kind,
    previous: row.previous,
    state: row.state,
    created_at: row.created_at,
    dropped_at: row.dropped_at,
  };
}
