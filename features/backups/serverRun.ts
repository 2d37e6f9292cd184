/**
 * A policy's run (`backups.run`): the run row goes queued -> running -> ok | partial | failed, a
 * task of kind `backup` shows the agent op's progress (files and bytes, from restic's JSON), and
 * retention follows an ok run only: the agent forgets on S3 and SFTP (`retention` of the op),
 * the panel itself on its own storage (append-only for agents). restic's own failures are a
 * failed run with their words, never a thrown job (no retry storm); an offline server is
 * retried, and the last try fails the run saying so.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from '../../server/agents/hub';
import { defineJob } from '../../server/jobs/define';
import type { JobContext } from '../../server/jobs/types';
import { BACKUPS_RUN_JOB } from './jobNames';
import type { BackupOutcome } from './resource';
import { forgetPolicy } from './serverPanelRestic';
import { keyStore } from './serverRecovery';
import { markForgotten, now, storeOf } from './serverRunStore';
import { panelStorageFull } from './serverCredit';
import type { BackupPolicyRow, BackupRunRow } from './serverTables';

export const runPayload = z.object({
  policy_id: z.number().int().positive(),
  /** A manual run made by "back up now" (its row and task exist); absent for a schedule's slot. */
  run_id: z.number().int().positive().optional(),
});

/** How long a run may be `running` before another is let through (a panel that died mid-run). */
const STALE_MS = 13 * 3_600_000;

/** The idempotency key of a manual run's job. */
export const manualKey = (runId: number) => `backups.run:manual:${runId}`;

/** A run's task: kind `backup`, named after what it saves. */
export async function newRun(
  app: FastifyInstance,
  policy: BackupPolicyRow,
  trigger: 'schedule' | 'manual',
  createdAt = now(app),
): Promise<BackupRunRow> {
  const taskId = await app.services.tasks.create({
    userId: policy.user_id,
    serverId: policy.server_id,
    kind: 'backup',
    name: policy.subject,
  });
  await app.services.tasks.addEvent(taskId, 'Waiting to start', 0);
  return app.db
    .insertInto('backup_runs')
    .values({
      backup_id: policy.id,
      status: 'queued',
      trigger,
      task_id: taskId,
      created_at: createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Another run of the policy queued or running (not stale), other than `except`. */
export async function runUnderWay(
  app: FastifyInstance,
  policyId: number,
  except: number | null = null,
): Promise<BackupRunRow | undefined> {
  const stale = new Date(app.services.clock() - STALE_MS).toISOString();
  let q = app.db
    .selectFrom('backup_runs')
    .selectAll()
    .where('backup_id', '=', policyId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'running').and('started_at', '>', stale),
        eb('status', '=', 'queued').and('created_at', '>', stale),
      ]),
    );
  if (except !== null) q = q.where('id', '!=', except);
  return q.orderBy('id').executeTakeFirst();
}

async function endTask(app: FastifyInstance, taskId: number | null, error: string | null) {
  if (taskId === null) return;
  const { tasks } = app.services;
  const task = await tasks.find(taskId);
  if (!task || task.status !== 'running') return;
  if (error === null) {
    await tasks.addEvent(taskId, 'Done', 10);
    await tasks.finish(taskId, 'completed');
  } else {
    const code = (await tasks.events(taskId)).at(-1)?.code ?? 0;
    await tasks.addEvent(taskId, error, code);
    await tasks.finish(taskId, 'failed');
  }
}

/** Ends a run that never reached restic (or whose op failed outright), with its words. */
export async function failRun(app: FastifyInstance, run: BackupRunRow, error: string) {
  await app.db
    .updateTable('backup_runs')
    .set({ status: 'failed', error: error.slice(0, 2000), ended_at: now(app) })
    .where('id', '=', run.id)
    .execute();
  await endTask(app, run.task_id, error);
}

/** The run this job is about: the manual one named, or the slot's (made on the first try). */
async function runOf(
  ctx: JobContext,
  policy: BackupPolicyRow,
  runId: number | undefined,
): Promise<BackupRunRow | null> {
  const { app } = ctx;
  if (runId !== undefined)
    return (
      (await app.db
        .selectFrom('backup_runs')
        .selectAll()
        .where('id', '=', runId)
        .where('backup_id', '=', policy.id)
        .executeTakeFirst()) ?? null
    );
  // A schedule's slot: its run is the one created at the slot's time (a retry finds it again).
  const slot = (ctx.slot ?? new Date(app.services.clock())).toISOString();
  const made = await app.db
    .selectFrom('backup_runs')
    .selectAll()
    .where('backup_id', '=', policy.id)
    .where('trigger', '=', 'schedule')
    .where('created_at', '=', slot)
    .executeTakeFirst();
  if (made) return made;
  if (!policy.enabled) return null;
  return newRun(app, policy, 'schedule', slot);
}

/** The op's arguments: what to save (an app's folder, a database) and where. */
async function opCall(app: FastifyInstance, policy: BackupPolicyRow) {
  const store = await storeOf(app, policy.server_id, policy.target_id, policy.user_id);
  const server = await app.services.servers.findById(policy.server_id);
  if (!server) throw new RunRefused('The server of this backup was removed');
  // The panel's storage: refused while the account its bytes count against is at its credit.
  if (store.panel) {
    const full = await panelStorageFull(app, store.store.user_id);
    if (full) throw new RunRefused(full);
  }
  const common = {
    target: store.target,
    host: server.uuid,
    policy_id: policy.id,
    // The panel's storage is append-only for agents: the panel forgets there itself.
    retention: store.panel
      ? null
      : {
          keep_last: policy.keep_last,
          keep_daily: policy.keep_daily,
          keep_weekly: policy.keep_weekly,
          keep_monthly: policy.keep_monthly,
          keep_yearly: 0,
        },
    upload_limit_kib: policy.upload_limit_kib,
    gentle: Boolean(policy.gentle),
  };
  if (policy.type === 'webapp') {
    const webapp = await app.db
      .selectFrom('webapps')
      .select(['id', 'name', 'sys_user'])
      .where('id', '=', policy.webapp_id ?? 0)
      .where('server_id', '=', policy.server_id)
      .executeTakeFirst();
    if (!webapp) throw new RunRefused('The web app of this backup no longer exists');
    const excludes = z
      .array(z.string())
      .catch([])
      .parse(JSON.parse(policy.excludes || '[]'));
    return {
      store,
      server,
      call: {
        op: 'backups.files' as const,
        args: {
          ...common,
          app_id: webapp.id,
          sys_user: webapp.sys_user,
          app: webapp.name,
          excludes,
        },
      },
    };
  }
  const database = await app.db
    .selectFrom('databases')
    .select(['id', 'name'])
    .where('id', '=', policy.database_id ?? 0)
    .where('server_id', '=', policy.server_id)
    .executeTakeFirst();
  if (!database) throw new RunRefused('The database of this backup no longer exists');
  return {
    store,
    server,
    call: {
      op: 'backups.database' as const,
      args: { ...common, db_id: database.id, database: database.name },
    },
  };
}

/** A run that cannot start, in words: failed at once, never retried. */
export class RunRefused extends Error {}

const MB = 1024 * 1024;
const sized = (n: number | null) => (n === null ? '' : ` ${(n / MB).toFixed(1)} MB`);

/** Writes the op's outcome on the run; retention after an ok run on the panel's storage. */
async function settle(
  app: FastifyInstance,
  policy: BackupPolicyRow,
  run: BackupRunRow,
  outcome: BackupOutcome,
  prepared: Awaited<ReturnType<typeof storeOf>>,
) {
  const { panel } = prepared;
  const error = outcome.error ? outcome.error.message : null;
  await app.db
    .updateTable('backup_runs')
    .set({
      status: outcome.status,
      snapshot_id: outcome.snapshot_id,
      files: outcome.files,
      size_bytes: outcome.size_bytes,
      added_bytes: outcome.added_bytes,
      duration_ms: outcome.duration_ms,
      error: error?.slice(0, 2000) ?? null,
      ended_at: now(app),
    })
    .where('id', '=', run.id)
    .execute();
  if (outcome.status !== 'failed' && prepared.store.initialized_at === null) {
    const initialized_at = now(app);
    await app.db
      .updateTable('backup_stores')
      .set({ initialized_at })
      .where('id', '=', prepared.store.id)
      .execute();
    // The new repository opens with the account's recovery key too (none made yet: nothing).
    const missed = await keyStore(app, { ...prepared.store, initialized_at });
    if (missed) app.log.warn({ store: prepared.store.id, missed }, 'no recovery key added yet');
  }
  if (outcome.status === 'failed') {
    await endTask(app, run.task_id, error ?? 'The backup failed');
    return;
  }
  await app.services.tasks.addEvent(
    run.task_id!,
    `Saved ${outcome.files ?? 0} files,${sized(outcome.size_bytes)} (${sized(outcome.added_bytes).trim() || '0 MB'} new)`,
    9,
  );
  let forgotten = outcome.forgotten;
  // Retention only after an ok run: a partial or failed one never pushes a good one out.
  if (outcome.status === 'ok' && panel) {
    try {
      forgotten = await forgetPolicy(panel, policy.id, {
        keep_last: policy.keep_last,
        keep_daily: policy.keep_daily,
        keep_weekly: policy.keep_weekly,
        keep_monthly: policy.keep_monthly,
        keep_yearly: 0,
      });
    } catch (err) {
      // The backup is saved: a retention that failed is said, and tried again after the next.
      app.log.warn({ err, policy: policy.id }, 'retention failed');
      await app.services.tasks.addEvent(run.task_id!, (err as Error).message, 9);
    }
  }
  if (forgotten.length) await markForgotten(app, policy.id, forgotten);
  await endTask(app, run.task_id, outcome.status === 'partial' ? error : null);
}

async function handler(ctx: JobContext, payload: z.output<typeof runPayload>) {
  const { app } = ctx;
  const policy = await app.db
    .selectFrom('backup_policies')
    .selectAll()
    .where('id', '=', payload.policy_id)
    .executeTakeFirst();
  if (!policy) return;
  const run = await runOf(ctx, policy, payload.run_id);
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
  // One run of a policy at a time: a second is refused (said on its row), never stacked.
  const other = await runUnderWay(app, policy.id, run.id);
  if (other && other.id < run.id) {
    await failRun(app, run, `Skipped: run ${other.id} of this backup was still under way`);
    return;
  }
  let prepared: Awaited<ReturnType<typeof opCall>>;
  try {
    prepared = await opCall(app, policy);
  } catch (err) {
    if (err instanceof RunRefused) return failRun(app, run, err.message);
    throw err;
  }
  await app.db
    .updateTable('backup_runs')
    .set({ status: 'running', started_at: now(app), error: null })
    .where('id', '=', run.id)
    .execute();
  const taskId = run.task_id!;
  let writing = Promise.resolve();
  const onProgress = (p: { event: string; code: number }) => {
    writing = writing.then(() => app.services.tasks.addEvent(taskId, p.event, p.code));
  };
  let outcome: BackupOutcome;
  try {
    const { op, args } = prepared.call;
    outcome = (await app.agents.call(policy.server_id, op, args as never, {
      onProgress,
    })) as BackupOutcome;
  } catch (err) {
    await writing;
    if (err instanceof AgentOfflineError || err instanceof AgentTimeoutError) {
      if (ctx.lastAttempt) return failRun(app, run, `${err.message}: the backup did not run`);
      await app.db
        .updateTable('backup_runs')
        .set({ status: 'queued' })
        .where('id', '=', run.id)
        .execute();
      await app.services.tasks.addEvent(taskId, `${err.message}; trying again later`, 0);
      throw err;
    }
    const words = err instanceof AgentOpError ? err.message : 'The backup failed';
    if (!(err instanceof AgentOpError)) app.log.error({ err }, 'backup run failed');
    return failRun(app, run, words);
  }
  await writing;
  await settle(app, policy, run, outcome, prepared.store);
}

/** `backups.run`: one run of a policy (a schedule's slot, or "back up now"). */
export const runJob = defineJob({
  name: BACKUPS_RUN_JOB,
  payload: runPayload,
  // Only an offline server is retried: 5 more tries, 1, 2, 4, 8, 16 minutes apart.
  retry: { limit: 5, backoffSeconds: 60 },
  // The op may take 12 hours.
  timeoutSeconds: 13 * 3600,
  concurrency: 4,
  keyed: true,
  handler,
});
