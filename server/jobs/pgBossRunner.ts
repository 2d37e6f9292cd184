import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import { z } from 'zod';
import type { Clock } from '../auth/sessions';
import type { Db } from '../db/database';
import { envelope, openEnvelope } from './envelope';
import type { ClaimedJob, Job, JobStatus, JobStore, NewJob } from './types';

/** pg-boss reaches the database through the caller's Kysely transaction (its `db` option). */
export const executorOf = (db: Db): PgBoss.Db => ({
  async executeSql(text: string, values: unknown[]) {
    const result = await db.executeQuery(CompiledQuery.raw(text, values));
    return { rows: result.rows };
  },
});

/**
 * On PostgreSQL the jobs are pg-boss's (10.x: its line that runs on Node 20), in its own schema
 * of the panel's database, so every panel on that database shares one queue: a queue per job
 * name with the job's retry limit, backoff and expiry; `fetch` claims due jobs with
 * `FOR UPDATE SKIP LOCKED`; `fail` retries with exponential backoff or fails for good; its
 * maintenance expires the runs of a panel that stopped. What we do not use of pg-boss, and why:
 *
 * - `schedule` (its cron): it checks every 30 s and knows no panel clock; the scheduler
 *   (server/jobs/scheduler.ts) is the same on both databases and takes each slot once.
 * - `work` (its polling workers): it waits a polling interval even after a full batch, and
 *   completes or fails a batch as one without awaiting the write; server/jobs/worker.ts
 *   fetches as many as it has room for, records each run's end before taking more, and wakes
 *   as soon as this panel enqueues.
 * - `singletonKey` for idempotency: on a standard queue it deduplicates nothing, and on the
 *   other policies only while a job is queued or active; keys are kept in `job_keys` instead,
 *   in the same transaction (server/jobs/queue.ts). The key is still sent as the singleton key,
 *   so pg-boss's own tables show it.
 */
export class PgBossJobStore implements JobStore {
  readonly engine = 'pg-boss' as const;
  private readonly boss: PgBoss;

  constructor(
    databaseUrl: string,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      application_name: 'stackdeck-jobs',
      max: 4,
      schedule: false,
      supervise: true,
      migrate: true,
    });
    this.boss.on('error', (err) => this.log.warn({ err }, 'pg-boss'));
  }

  async start(jobs: readonly Job[]): Promise<void> {
    await this.boss.start();
    for (const job of jobs) {
      const options = {
        name: job.name,
        policy: 'standard' as const,
        retryLimit: job.retry.limit,
        retryDelay: job.retry.backoffSeconds,
        retryBackoff: true,
        expireInSeconds: job.timeoutSeconds,
      };
      await this.boss.createQueue(job.name, options);
      // An existing queue takes the job's current policy (a new version may change it).
      await this.boss.updateQueue(job.name, options);
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, timeout: 1000 });
  }

  async insert(trx: Db, jobs: readonly NewJob[]): Promise<string[]> {
    const now = this.clock();
    const rows = jobs.map((job) => ({
      id: randomUUID(),
      name: job.name,
      data: envelope(job.payload, job.meta),
      // pg-boss compares with the database's time: the same wait as on the panel's clock.
      startAfter:
        job.runAt !== undefined && job.runAt > now
          ? new Date(Date.now() + (job.runAt - now)).toISOString()
          : undefined,
      singletonKey: job.meta.key,
      retryLimit: job.retry.limit,
      retryDelay: job.retry.backoffSeconds,
      retryBackoff: true,
      expireInSeconds: job.timeoutSeconds,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await this.boss.insert(rows.slice(i, i + 1000), { db: executorOf(trx) });
    return rows.map((r) => r.id);
  }

  async claim(job: Job, limit: number): Promise<ClaimedJob[]> {
    const fetched = await this.boss.fetch<unknown>(job.name, {
      batchSize: limit,
      includeMetadata: true,
    });
    return fetched.map((row) => {
      const { payload, meta } = openEnvelope(row.data);
      return {
        id: row.id,
        payload,
        meta,
        attempt: row.retryCount + 1,
        retryLimit: row.retryLimit,
      };
    });
  }

  async complete(job: Job, ids: readonly string[]): Promise<void> {
    if (ids.length) await this.boss.complete(job.name, [...ids]);
  }

  async fail(job: Job, claimed: ClaimedJob, error: string): Promise<void> {
    await this.boss.fail(job.name, claimed.id, { message: error });
  }

  async status(job: Job, id: string): Promise<JobStatus | null> {
    const row = await this.boss.getJobById<unknown>(job.name, id, { includeArchive: true });
    if (!row) return null;
    const output = z.object({ message: z.string() }).safeParse(row.output);
    return {
      state: STATES[row.state],
      attempts: row.retryCount + (row.startedOn ? 1 : 0),
      error: row.state === 'completed' || !output.success ? null : output.data.message,
    };
  }
}

const STATES = {
  created: 'queued',
  retry: 'queued',
  active: 'running',
  completed: 'done',
  cancelled: 'failed',
  failed: 'failed',
} as const satisfies Record<string, JobStatus['state']>;
