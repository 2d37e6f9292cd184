/**
 * Verification (`backups.verify`, nightly) and pruning (`backups.prune`, weekly):
 * - every store is checked: the panel's storage by the panel (`restic check`), the others by the
 *   op `backups.check` on their server; each night reads one seventh of the data
 *   (`--read-data-subset=n/7`), so the whole of it is read every week. Damage found turns the
 *   kept runs of that store's policies `failed` with the check's words (their snapshots may not
 *   restore; the policy's health turns `failing`) and says so in a failed task (an alert);
 * - the newest kept good snapshot of each enabled policy is test-restored (op
 *   `backups.test-restore`) and, when it matches, its run is `verified_at`;
 * - a policy with no verified snapshot younger than twice its interval raises an alert (a failed
 *   task: the platform's `task.failed`), once per such stretch.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import { FREQUENCY_SECONDS } from './schemas';
import { check, prune } from './serverPanelRestic';
import { type RunStore, now, panelRepo } from './serverRunStore';
import { keyStore } from './serverRecovery';
import { targetOfStore, targetRow } from './serverStores';
import type { BackupPolicyRow, BackupStoreRow } from './serverTables';

export const BACKUPS_VERIFY_JOB = 'backups.verify';
export const BACKUPS_PRUNE_JOB = 'backups.prune';

/** Tonight's seventh of the data: 1/7 ... 7/7 by the day of the week. */
export const subsetOf = (at: number) => `${new Date(at).getUTCDay() + 1}/7`;

async function runStoreOf(app: FastifyInstance, store: BackupStoreRow): Promise<RunStore> {
  const target = await targetRow(app, store.target_id);
  return { store, target: await targetOfStore(app, store, target), panel: panelRepo(app, store) };
}

/** A failed task of kind `backup`: the platform's `task.failed` tells its owner (an alert). */
async function sayFailure(
  app: FastifyInstance,
  userId: number,
  serverId: number | null,
  name: string,
  words: string,
) {
  const { tasks } = app.services;
  const id = await tasks.create({ userId, serverId, kind: 'backup', name });
  await tasks.addEvent(id, words, 0);
  await tasks.finish(id, 'failed');
}

/** One store's check: `null` when it holds up (or cannot be checked now), else the words. */
async function checkStore(
  app: FastifyInstance,
  store: BackupStoreRow,
  subset: string | null,
): Promise<string | null> {
  let opened: RunStore;
  try {
    opened = await runStoreOf(app, store);
  } catch (err) {
    app.log.warn({ err, store: store.id }, 'a backup store cannot be opened for its check');
    return null;
  }
  if (opened.panel) {
    // Made, never written to (no run yet): nothing to check.
    if (!fs.existsSync(path.join(opened.panel.path, 'config'))) return null;
    const done = await check(opened.panel, subset);
    return done.ok ? null : done.message;
  }
  if (!(await app.agents.isOnline(store.server_id))) return null;
  try {
    const done = await app.agents.call(store.server_id, 'backups.check', {
      target: opened.target,
      read_data_subset: subset,
    });
    return done.ok ? null : done.message;
  } catch (err) {
    app.log.warn({ err, store: store.id }, 'a backup store check did not run');
    return null;
  }
}

/** Damage: the kept good runs of the store's policies can no longer be trusted. */
async function markDamaged(app: FastifyInstance, store: BackupStoreRow, words: string) {
  let policies = app.db
    .selectFrom('backup_policies')
    .selectAll()
    .where('server_id', '=', store.server_id);
  policies =
    store.target_id === null
      ? policies.where('target_id', 'is', null)
      : policies.where('target_id', '=', store.target_id);
  for (const policy of await policies.execute()) {
    const hit = await app.db
      .updateTable('backup_runs')
      .set({ status: 'failed', verified_at: null, error: words.slice(0, 2000) })
      .where('backup_id', '=', policy.id)
      .where('removed', '=', 0)
      .where('status', 'in', ['ok', 'partial'])
      .executeTakeFirst();
    if (Number(hit.numUpdatedRows) > 0)
      await sayFailure(app, policy.user_id, policy.server_id, `${policy.subject} (check)`, words);
  }
}

/** The newest kept good run of a policy, test-restored; verified_at when it matched. */
async function testRestore(app: FastifyInstance, policy: BackupPolicyRow) {
  const run = await app.db
    .selectFrom('backup_runs')
    .selectAll()
    .where('backup_id', '=', policy.id)
    .where('removed', '=', 0)
    .where('status', 'in', ['ok', 'partial'])
    .where('snapshot_id', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!run || run.verified_at) return;
  if (!(await app.agents.isOnline(policy.server_id))) return;
  let opened: RunStore;
  try {
    const store = await app.db
      .selectFrom('backup_stores')
      .selectAll()
      .where('server_id', '=', policy.server_id)
      .where((eb) =>
        policy.target_id === null
          ? eb('target_id', 'is', null)
          : eb('target_id', '=', policy.target_id),
      )
      .executeTakeFirst();
    if (!store) return;
    opened = await runStoreOf(app, store);
  } catch (err) {
    app.log.warn({ err, policy: policy.id }, 'no store for a test restore');
    return;
  }
  try {
    const done = await app.agents.call(policy.server_id, 'backups.test-restore', {
      target: opened.target,
      snapshot: run.snapshot_id!,
      type: policy.type,
      source: policy.type === 'database' ? policy.subject : null,
    });
    if (done.ok)
      await app.db
        .updateTable('backup_runs')
        .set({ verified_at: now(app) })
        .where('id', '=', run.id)
        .execute();
    else
      await sayFailure(
        app,
        policy.user_id,
        policy.server_id,
        `${policy.subject} (test restore)`,
        done.message,
      );
  } catch (err) {
    app.log.warn({ err, policy: policy.id }, 'a test restore did not run');
  }
}

/**
 * A policy without a verified kept snapshot younger than twice its interval: an alert, once
 * per stretch (not again while no newer verification came in).
 */
async function staleness(app: FastifyInstance, policy: BackupPolicyRow) {
  const at = app.services.clock();
  const window = 2 * FREQUENCY_SECONDS[policy.frequency] * 1000;
  if (at - Date.parse(policy.created_at) <= window) return;
  const row = await app.db
    .selectFrom('backup_runs')
    .select((eb) => eb.fn.max('verified_at').as('verified_at'))
    .where('backup_id', '=', policy.id)
    .where('removed', '=', 0)
    .where('status', 'in', ['ok', 'partial'])
    .executeTakeFirst();
  const verified = row?.verified_at ?? null;
  if (verified && at - Date.parse(verified) <= window) return;
  const since = verified ?? policy.created_at;
  const name = `${policy.subject} (not verified)`;
  const said = await app.db
    .selectFrom('tasks')
    .select('id')
    .where('user_id', '=', policy.user_id)
    .where('kind', '=', 'backup')
    .where('name', '=', name)
    .where('created_at', '>', since)
    .executeTakeFirst();
  if (said) return;
  const words = verified
    ? `No backup of ${policy.subject} was verified since ${verified.slice(0, 16).replace('T', ' ')} UTC`
    : `No backup of ${policy.subject} has been verified yet`;
  await sayFailure(app, policy.user_id, policy.server_id, name, words);
}

/**
 * One night's verification. `subset`: the part of the data the checks read (tonight's seventh
 * by default; null reads none: the structure only, as a test that damaged it asks).
 */
export async function verifyAll(
  app: FastifyInstance,
  options: { subset?: string | null } = {},
): Promise<void> {
  const subset = options.subset === undefined ? subsetOf(app.services.clock()) : options.subset;
  for (const store of await app.db.selectFrom('backup_stores').selectAll().execute()) {
    const damage = await checkStore(app, store, subset);
    if (damage) await markDamaged(app, store, damage);
    // A repository the recovery key could not be added to (unreachable then) gets it now.
    const missed = await keyStore(app, store);
    if (missed)
      app.log.warn({ store: store.id, missed }, 'the recovery key is not in a repository');
  }
  const policies = await app.db
    .selectFrom('backup_policies')
    .selectAll()
    .where('enabled', '=', 1)
    .execute();
  for (const policy of policies) {
    await testRestore(app, policy);
    await staleness(app, policy);
  }
}

export const verifyJob = defineJob({
  name: BACKUPS_VERIFY_JOB,
  payload: z.object({}),
  retry: { limit: 1, backoffSeconds: 600 },
  timeoutSeconds: 12 * 3600,
  concurrency: 1,
  async handler({ app }) {
    await verifyAll(app);
  },
});

/** Weekly: the panel's own storage drops the data no snapshot uses (after forgets). */
export const pruneJob = defineJob({
  name: BACKUPS_PRUNE_JOB,
  payload: z.object({}),
  retry: { limit: 1, backoffSeconds: 600 },
  timeoutSeconds: 12 * 3600,
  concurrency: 1,
  async handler({ app }) {
    const stores = await app.db
      .selectFrom('backup_stores')
      .selectAll()
      .where('target_id', 'is', null)
      .execute();
    for (const store of stores) {
      const repo = panelRepo(app, store);
      if (!repo) continue;
      try {
        await prune(repo);
      } catch (err) {
        app.log.warn({ err, store: store.id }, 'pruning a backup store failed');
      }
    }
  },
});

export const verifySchedules = [
  defineSchedule({ name: BACKUPS_VERIFY_JOB, cron: '30 2 * * *', job: verifyJob, payload: {} }),
  defineSchedule({ name: BACKUPS_PRUNE_JOB, cron: '30 4 * * 0', job: pruneJob, payload: {} }),
];
