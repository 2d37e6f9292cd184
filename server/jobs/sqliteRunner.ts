import { randomUUID } from 'node:crypto';
import type { Clock } from '../auth/sessions';
import type { Db } from '../db/database';
import { backoffMs, envelope, openEnvelope } from './envelope';
import type { ClaimedJob, Job, JobStatus, JobStore, NewJob } from './types';

/** How long a claim holds without renewal: a panel that stopped loses its runs after this. */
export const LEASE_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The embedded default's queue: the `jobs` table in the panel's SQLite file. A due job is
 * claimed by one UPDATE ... RETURNING (SQLite runs one writer at a time, so two claims never
 * take the same row, even from two processes sharing the file), and the claim is a lease on
 * real time that the worker renews while the job runs: a panel that stops leaves its runs to
 * be taken again a minute later, counted as attempts. Due times (`run_at`, retries) are on the
 * panel's clock, so tests that drive the clock drive the queue.
 */
export class SqliteJobStore implements JobStore {
  readonly engine = 'sqlite' as const;
  /** This process's claims. */
  private readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  async insert(trx: Db, jobs: readonly NewJob[]): Promise<string[]> {
    const now = this.clock();
    const ids: string[] = [];
    for (let i = 0; i < jobs.length; i += 500) {
      const rows = await trx
        .insertInto('jobs')
        .values(
          jobs.slice(i, i + 500).map((job) => ({
            name: job.name,
            data: JSON.stringify(envelope(job.payload, job.meta)),
            state: 'queued' as const,
            run_at: iso(job.runAt ?? now),
            attempts: 0,
            retry_limit: job.retry.limit,
            backoff_seconds: job.retry.backoffSeconds,
            timeout_seconds: job.timeoutSeconds,
            created_at: iso(now),
          })),
        )
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => String(r.id)));
    }
    return ids;
  }

  async claim(job: Job, limit: number): Promise<ClaimedJob[]> {
    const realNow = Date.now();
    const rows = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        locked_by: this.owner,
        locked_until: iso(realNow + LEASE_MS),
      }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('name', '=', job.name)
          .where('state', '=', 'queued')
          .where('run_at', '<=', iso(this.clock()))
          .orderBy('run_at')
          .orderBy('id')
          .limit(limit),
      )
      .returning(['id', 'data', 'attempts', 'retry_limit'])
      .execute();
    return rows.map((row) => {
      const { payload, meta } = openEnvelope(parseJson(row.data));
      return {
        id: String(row.id),
        payload,
        meta,
        attempt: row.attempts,
        retryLimit: row.retry_limit,
      };
    });
  }

  async complete(_job: Job, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('jobs')
      .set({
        state: 'done',
        finished_at: iso(this.clock()),
        last_error: null,
        locked_by: null,
        locked_until: null,
      })
      .where('id', 'in', ids.map(Number))
      .where('locked_by', '=', this.owner)
      .execute();
  }

  async fail(job: Job, claimed: ClaimedJob, error: string): Promise<void> {
    const now = this.clock();
    const again = claimed.attempt <= claimed.retryLimit;
    await this.db
      .updateTable('jobs')
      .set(
        again
          ? {
              state: 'queued',
              run_at: iso(now + backoffMs(job.retry, claimed.attempt)),
              last_error: error,
              locked_by: null,
              locked_until: null,
            }
          : {
              state: 'failed',
              finished_at: iso(now),
              last_error: error,
              locked_by: null,
              locked_until: null,
            },
      )
      .where('id', '=', Number(claimed.id))
      .where('locked_by', '=', this.owner)
      .execute();
  }

  /**
   * Runs whose lease ran out (the panel running them stopped) are queued again, to be claimed
   * as their next attempt (the worker fails one that has no attempt left).
   */
  async reclaim(job: Job): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ state: 'queued', locked_by: null, locked_until: null })
      .where('name', '=', job.name)
      .where('state', '=', 'running')
      .where('locked_until', '<', iso(Date.now()))
      .execute();
  }

  async renew(job: Job, ids: readonly string[]): Promise<void> {
    await this.reclaim(job);
    if (!ids.length) return;
    await this.db
      .updateTable('jobs')
      .set({ locked_until: iso(Date.now() + LEASE_MS) })
      .where('id', 'in', ids.map(Number))
      .where('locked_by', '=', this.owner)
      .where('state', '=', 'running')
      .execute();
  }

  async status(_job: Job, id: string): Promise<JobStatus | null> {
    const row = await this.db
      .selectFrom('jobs')
      .select(['state', 'attempts', 'last_error'])
      .where('id', '=', Number(id))
      .executeTakeFirst();
    return row ? { state: row.state, attempts: row.attempts, error: row.last_error } : null;
  }
}
