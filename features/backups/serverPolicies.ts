/**
 * The policies' repository: rows to records (`backupPolicySchema`: health, last run, stored
 * bytes, the schedule in words and its next slot) and each policy's schedule on the platform's
 * scheduler (`backups.policy.<id>` running the job `backups.run`).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../server/db/database';
import { nextSlot } from '../../server/jobs/cron';
import { BACKUPS_RUN_JOB, policyScheduleName } from './jobNames';
import type { POLICY_HEALTH } from './schemas';
import {
  type BackupFrequency,
  type BackupPolicy,
  type BackupRun,
  FREQUENCY_SECONDS,
} from './schemas';
import type { BackupPolicyRow, BackupRunRow } from './serverTables';

/** What the panel's own storage is called where a policy names its target. */
export const PANEL_STORAGE = 'Panel storage';
/** A policy's server once it is removed (its files stay). */
const REMOVED_SERVER = 'A removed server';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Schedule = Pick<BackupPolicyRow, 'frequency' | 'at' | 'weekday' | 'day' | 'timezone'>;

/** The croner expression of a policy's schedule (read in its time zone). */
export function cronOfPolicy(p: Schedule): string {
  const [hh, mm] = p.at.split(':').map(Number);
  const each: Record<BackupFrequency, string> = {
    hourly: `${mm} * * * *`,
    daily: `${mm} ${hh} * * *`,
    weekly: `${mm} ${hh} * * ${p.weekday}`,
    monthly: `${mm} ${hh} ${p.day} * *`,
  };
  return each[p.frequency];
}

/** The schedule in words: "Every day at 03:00 (Europe/Lisbon)". */
export function scheduleText(p: Schedule): string {
  const zone = `(${p.timezone})`;
  switch (p.frequency) {
    case 'hourly':
      return `Every hour at minute ${p.at.slice(3)} ${zone}`;
    case 'daily':
      return `Every day at ${p.at} ${zone}`;
    case 'weekly':
      return `Every ${WEEKDAYS[p.weekday] ?? 'Sunday'} at ${p.at} ${zone}`;
    case 'monthly':
      return `On day ${p.day} of every month at ${p.at} ${zone}`;
  }
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The user's own time zone (their profile's), UTC when none or an unknown one. */
export async function userZone(db: Db, uid: number): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select('time_zone')
    .where('id', '=', uid)
    .executeTakeFirst();
  const zone = user?.time_zone?.trim();
  return zone && knownZone(zone) ? zone : 'UTC';
}

/**
 * Puts the policy's schedule on the scheduler when it is on and its server still exists, or
 * takes it off. In the caller's transaction when given.
 */
export async function syncSchedule(
  app: FastifyInstance,
  policy: BackupPolicyRow,
  trx: Db = app.db,
): Promise<void> {
  const name = policyScheduleName(policy.id);
  if (!policy.enabled) {
    await app.jobs.unschedule(name, trx);
    return;
  }
  await app.jobs.schedule(
    {
      name,
      cron: cronOfPolicy(policy),
      timezone: policy.timezone,
      job: BACKUPS_RUN_JOB,
      payload: { policy_id: policy.id },
    },
    trx,
  );
}

const num = (v: number | string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

/** A run row as the API shows it. */
export function toRunRecord(row: BackupRunRow): BackupRun {
  return {
    id: row.id,
    backup_id: row.backup_id,
    status: row.status,
    trigger: row.trigger,
    snapshot_id: row.snapshot_id,
    files: row.files,
    size_bytes: num(row.size_bytes),
    added_bytes: num(row.added_bytes),
    duration_ms: row.duration_ms,
    error: row.error,
    task_id: row.task_id,
    verified_at: row.verified_at,
    removed: Boolean(row.removed),
    started_at: row.started_at,
    ended_at: row.ended_at,
    created_at: row.created_at,
  };
}

/** What the runs of each policy add to its record. */
interface RunFacts {
  last: BackupRunRow | null;
  /** The newest good (ok, partial) run still kept: when it began. */
  lastGoodAt: string | null;
  verifiedAt: string | null;
  storedBytes: number;
}

async function runFacts(db: Db, ids: readonly number[]): Promise<Map<number, RunFacts>> {
  const facts = new Map<number, RunFacts>();
  if (!ids.length) return facts;
  for (const id of ids)
    facts.set(id, { last: null, lastGoodAt: null, verifiedAt: null, storedBytes: 0 });
  const latest = await db
    .selectFrom('backup_runs')
    .selectAll()
    .where(
      'id',
      'in',
      db
        .selectFrom('backup_runs')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('backup_id', 'in', ids)
        .groupBy('backup_id'),
    )
    .execute();
  for (const run of latest) facts.get(run.backup_id)!.last = run;
  const kept = await db
    .selectFrom('backup_runs')
    .select((eb) => [
      'backup_id',
      eb.fn.max('verified_at').as('verified_at'),
      sql<string | null>`max(case when status in ('ok', 'partial') then created_at end)`.as(
        'good_at',
      ),
      sql<string | number | null>`sum(coalesce(added_bytes, 0))`.as('bytes'),
    ])
    .where('backup_id', 'in', ids)
    .where('removed', '=', 0)
    .groupBy('backup_id')
    .execute();
  for (const row of kept) {
    const f = facts.get(row.backup_id)!;
    f.verifiedAt = row.verified_at;
    f.lastGoodAt = row.good_at;
    f.storedBytes = Number(row.bytes ?? 0);
  }
  return facts;
}

/**
 * `ok`: a verified snapshot younger than twice the interval; `unverified`: a good one, none
 * verified in time; `failing`: no good snapshot in twice the interval; `never`; `paused`.
 */
export function healthOf(
  policy: Pick<BackupPolicyRow, 'enabled' | 'frequency'>,
  facts: RunFacts,
  now: number,
): (typeof POLICY_HEALTH)[number] {
  if (!policy.enabled) return 'paused';
  if (!facts.last) return 'never';
  const window = 2 * FREQUENCY_SECONDS[policy.frequency] * 1000;
  const fresh = (at: string | null) => at !== null && now - Date.parse(at) <= window;
  if (!fresh(facts.lastGoodAt))
    return facts.last.status === 'queued' || facts.last.status === 'running' ? 'never' : 'failing';
  return fresh(facts.verifiedAt) ? 'ok' : 'unverified';
}

/** Policy rows with their server's and target's names. */
export type NamedPolicyRow = BackupPolicyRow & {
  server_name: string | null;
  target_name: string | null;
  /** The app's or database's managed status; null once its row is gone. */
  webapp_status: string | null;
  database_status: string | null;
};

/** Joins the names onto a query of policies (`reachablePolicies` or an admin's). */
export function withNames(db: Db, ids: readonly number[]): Promise<NamedPolicyRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('backup_policies')
    .leftJoin('servers', 'servers.id', 'backup_policies.server_id')
    .leftJoin('backup_targets', 'backup_targets.id', 'backup_policies.target_id')
    .leftJoin('webapps', 'webapps.id', 'backup_policies.webapp_id')
    .leftJoin('databases', 'databases.id', 'backup_policies.database_id')
    .selectAll('backup_policies')
    .select([
      'servers.name as server_name',
      'backup_targets.name as target_name',
      'webapps.status as webapp_status',
      'databases.status as database_status',
    ])
    .where('backup_policies.id', 'in', ids)
    .execute();
}

/** Why a switched-off policy cannot run again (its server, app or database gone), or null. */
function pausedReason(row: BackupPolicyRow, n: NamedPolicyRow | undefined): string | null {
  if (!n) return null;
  if (n.server_name === null) return 'Its server was removed';
  const status = row.type === 'webapp' ? n.webapp_status : n.database_status;
  if (status === null || status === 'deleting')
    return row.type === 'webapp' ? 'Its app was deleted' : 'Its database was deleted';
  return null;
}

/** The records of policies, in the order of `rows`. */
export async function toPolicyRecords(
  app: FastifyInstance,
  rows: readonly BackupPolicyRow[],
): Promise<BackupPolicy[]> {
  const ids = rows.map((r) => r.id);
  const [named, facts] = await Promise.all([withNames(app.db, ids), runFacts(app.db, ids)]);
  const byId = new Map(named.map((r) => [r.id, r]));
  const now = app.services.clock();
  return rows.map((row) => {
    const n = byId.get(row.id);
    const f = facts.get(row.id)!;
    const next =
      row.enabled && n?.server_name !== null && n?.server_name !== undefined
        ? nextSlot(cronOfPolicy(row), row.timezone, now)
        : null;
    return {
      id: row.id,
      user_id: row.user_id,
      type: row.type,
      server_id: row.server_id,
      server_name: n?.server_name ?? REMOVED_SERVER,
      webapp_id: row.webapp_id,
      database_id: row.database_id,
      subject: row.subject,
      target_id: row.target_id,
      target_name: row.target_id === null ? PANEL_STORAGE : (n?.target_name ?? PANEL_STORAGE),
      frequency: row.frequency,
      at: row.at,
      weekday: row.weekday,
      day: row.day,
      timezone: row.timezone,
      schedule_text: scheduleText(row),
      keep_last: row.keep_last,
      keep_daily: row.keep_daily,
      keep_weekly: row.keep_weekly,
      keep_monthly: row.keep_monthly,
      excludes: parseExcludes(row.excludes),
      upload_limit_kib: row.upload_limit_kib,
      gentle: Boolean(row.gentle),
      enabled: Boolean(row.enabled),
      paused_reason: row.enabled ? null : pausedReason(row, n),
      health: healthOf(row, f, now),
      last_run: f.last && toRunRecord(f.last),
      next_run_at: next === null ? null : new Date(next).toISOString(),
      verified_at: f.verifiedAt,
      stored_bytes: f.storedBytes,
      created_at: row.created_at,
    };
  });
}

export async function toPolicyRecord(
  app: FastifyInstance,
  row: BackupPolicyRow,
): Promise<BackupPolicy> {
  const [record] = await toPolicyRecords(app, [row]);
  return record!;
}

/** The stored excludes (JSON text), an empty list if unreadable. */
export function parseExcludes(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A page of a policy's files (runs), newest first, the removed ones left out. */
export async function filesOf(
  db: Db,
  policyId: number,
  page: { page: number; perPage: number },
): Promise<{ files: BackupRun[]; total: number }> {
  const base = db
    .selectFrom('backup_runs')
    .where('backup_id', '=', policyId)
    .where('removed', '=', 0);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
  ]);
  return { files: rows.map(toRunRecord), total: Number(count?.n ?? 0) };
}

/**
 * A removed server's policies: switched off and off the scheduler (their files stay, still
 * restorable into another server's app or database by their owner).
 */
export async function pauseServerPolicies(app: FastifyInstance, serverId: number): Promise<void> {
  const rows = await app.db
    .selectFrom('backup_policies')
    .select('id')
    .where('server_id', '=', serverId)
    .execute();
  await pausePolicies(
    app,
    rows.map((r) => r.id),
  );
}

/** Policies switched off and off the scheduler; their files stay. */
async function pausePolicies(app: FastifyInstance, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('backup_policies')
      .set({ enabled: 0, updated_at: new Date(app.services.clock()).toISOString() })
      .where('id', 'in', ids)
      .execute();
    for (const id of ids) await app.jobs.unschedule(policyScheduleName(id), trx);
  });
}

/**
 * A deleted app's policies (and, when its databases go with it, theirs), or a deleted
 * database's: switched off and unscheduled, as a removed server's are. Their files stay,
 * restorable into another app or database; the record says why (`paused_reason`).
 */
export async function pauseSubjectPolicies(
  app: FastifyInstance,
  serverId: number,
  subject: { webapp_id: number } | { database_ids: readonly number[] },
): Promise<void> {
  let query = app.db.selectFrom('backup_policies').select('id').where('server_id', '=', serverId);
  if ('webapp_id' in subject)
    query = query.where('type', '=', 'webapp').where('webapp_id', '=', subject.webapp_id);
  else {
    if (!subject.database_ids.length) return;
    query = query.where('type', '=', 'database').where('database_id', 'in', subject.database_ids);
  }
  await pausePolicies(
    app,
    (await query.execute()).map((r) => r.id),
  );
}

/** A deleted account's schedules (its rows go with the account by the tables' cascade). */
export async function unscheduleUserPolicies(app: FastifyInstance, uid: number): Promise<void> {
  const rows = await app.db
    .selectFrom('backup_policies')
    .select('id')
    .where('user_id', '=', uid)
    .execute();
  for (const { id } of rows) await app.jobs.unschedule(policyScheduleName(id));
}
