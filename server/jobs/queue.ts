import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import { cronProblem } from './cron';
import type { JobRegistry } from './registry';
import { SlotRecord } from './slotRecord';
import { JobWorker } from './worker';
import type {
  Enqueued,
  EnqueueOptions,
  Job,
  JobMeta,
  JobQueue,
  JobStatus,
  JobStore,
  NewJob,
  ScheduleInput,
} from './types';

const iso = (ms: number) => new Date(ms).toISOString();

/** `app.jobs`: enqueueing, feature schedules, and this panel's workers over one store. */
export class PanelJobQueue implements JobQueue {
  private readonly workers = new Map<string, JobWorker>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly store: JobStore,
    readonly registry: JobRegistry,
  ) {}

  get engine() {
    return this.store.engine;
  }

  async start(): Promise<void> {
    await this.store.start(this.registry.jobs);
    const slots = new SlotRecord(this.app);
    for (const job of this.registry.jobs) {
      const worker = new JobWorker(this.app, job, this.store, slots);
      this.workers.set(job.name, worker);
      worker.start();
    }
  }

  async stop(graceMs: number): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.stop(graceMs)));
    await this.store.stop();
  }

  wake(name?: string): void {
    if (name) this.workers.get(name)?.wake();
    else for (const worker of this.workers.values()) worker.wake();
  }

  async enqueue<Input>(
    job: Job<Input> | string,
    payload: Input,
    options: EnqueueOptions = {},
  ): Promise<Enqueued> {
    const found = this.registry.job(typeof job === 'string' ? job : job.name);
    if (found.keyed && options.key === undefined)
      throw new Error(`${found.name} is enqueued with an idempotency key only`);
    const parsed = found.parse(payload);
    const work = async (trx: Db) => {
      const meta: JobMeta = {};
      if (options.key !== undefined) {
        if (!(await claimKey(trx, found.name, options.key, this.app.services.clock())))
          return { enqueued: false, id: null, taskId: null };
        meta.key = options.key;
      }
      const spec = found.taskOf(parsed);
      let taskId: number | null = null;
      if (spec) {
        const stamp = new Date().toISOString();
        const task = await trx
          .insertInto('tasks')
          .values({
            user_id: spec.userId,
            server_id: spec.serverId ?? null,
            kind: spec.kind,
            name: spec.name.slice(0, 200),
            status: 'running',
            op_id: null,
            created_at: stamp,
            updated_at: stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        taskId = task.id;
        meta.taskId = task.id;
      }
      const [id] = await this.store.insert(trx, [
        newJob(found, parsed, meta, options.runAt !== undefined ? { runAt: options.runAt } : {}),
      ]);
      return { enqueued: true, id: id ?? null, taskId };
    };
    // A key and a task are written with the job: without the caller's transaction, in our own.
    const own = options.key !== undefined || found.taskOf(parsed) !== null;
    const result = options.trx
      ? await work(options.trx)
      : own
        ? await this.app.db.transaction().execute(work)
        : await work(this.app.db);
    // In this panel, the worker looks at once; a caller's transaction still open is waited for
    // on SQLite (one connection), and on PostgreSQL the next look (POLL_MS) finds the job.
    if (result.enqueued) this.wake(found.name);
    return result;
  }

  async schedule(input: ScheduleInput, trx: Db = this.app.db): Promise<number> {
    const job = this.registry.job(input.job);
    const timezone = input.timezone ?? 'UTC';
    const problem = cronProblem(input.cron, timezone);
    if (problem) throw new Error(`schedule ${input.name}: ${problem}`);
    const payload = JSON.stringify(job.parse(input.payload ?? {}) ?? null);
    const now = iso(this.app.services.clock());
    const values = {
      cron: input.cron,
      timezone,
      job: job.name,
      payload,
      enabled: input.enabled === false ? 0 : 1,
      updated_at: now,
    };
    const row = await trx
      .insertInto('schedules')
      .values({ name: input.name, ...values, builtin: 0, last_slot: now, created_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet(values))
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async unschedule(name: string, trx: Db = this.app.db): Promise<void> {
    await trx.deleteFrom('schedules').where('name', '=', name).where('builtin', '=', 0).execute();
  }

  status(job: Job | string, id: string): Promise<JobStatus | null> {
    return this.store.status(this.registry.job(typeof job === 'string' ? job : job.name), id);
  }

  /** Inserts the jobs of schedule slots (the scheduler, inside its transaction). */
  insert(trx: Db, jobs: readonly NewJob[]): Promise<string[]> {
    return this.store.insert(trx, jobs);
  }
}

export function newJob(job: Job, payload: unknown, meta: JobMeta, at: { runAt?: number }): NewJob {
  return {
    name: job.name,
    payload,
    meta,
    ...at,
    retry: job.retry,
    timeoutSeconds: job.timeoutSeconds,
  };
}

/** Takes an idempotency key inside `trx`; false when it was taken before. */
async function claimKey(trx: Db, name: string, key: string, now: number): Promise<boolean> {
  const taken = await trx
    .insertInto('job_keys')
    .values({ name, key, created_at: iso(now) })
    .onConflict((oc) => oc.columns(['name', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}
