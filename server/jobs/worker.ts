import type { FastifyInstance } from 'fastify';
import { errorText } from './envelope';
import { LEASE_MS } from './sqliteRunner';
import type { ClaimedJob, Job, JobContext, JobStore, JobTask } from './types';

/** How often a worker looks for due jobs when nothing woke it. */
export const POLL_MS = 1000;

/**
 * Runs one job's due work in this panel: claims as many as it has room for (the job's
 * `concurrency`), runs each, records each end (done, or failed and retried after the backoff),
 * and claims again at once while there is room and work, on a wake-up (an enqueue in this
 * panel, a schedule's slot) or every POLL_MS. The same on both stores.
 */
export class JobWorker {
  private readonly running = new Map<string, { startedAt: number; done: Promise<void> }>();
  private claiming: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private lease: NodeJS.Timeout | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly job: Job,
    private readonly store: JobStore,
  ) {}

  start(): void {
    this.poll = setInterval(() => this.wake(), POLL_MS);
    this.poll.unref();
    if (this.store.renew) {
      this.lease = setInterval(() => void this.renew(), LEASE_MS / 3);
      this.lease.unref();
    }
    this.wake();
  }

  /** Looks for due work now (again after the current look, if one is under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claimLoop().finally(() => {
      this.claiming = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops claiming; waits up to `graceMs` for the runs under way. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.lease) clearInterval(this.lease);
    await this.claiming;
    const runs = [...this.running.values()].map((r) => r.done);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(runs),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopped) {
      const room = this.job.concurrency - this.running.size;
      if (room <= 0) return;
      let claimed: ClaimedJob[];
      try {
        claimed = await this.store.claim(this.job, room);
      } catch (err) {
        if (!this.stopped) this.app.log.warn({ err, job: this.job.name }, 'claiming jobs failed');
        return;
      }
      for (const one of claimed) {
        const done = this.runOne(one).finally(() => {
          this.running.delete(one.id);
          // Room again: more may be waiting.
          this.wake();
        });
        this.running.set(one.id, { startedAt: Date.now(), done });
      }
      if (claimed.length < room) return;
    }
  }

  private async renew(): Promise<void> {
    // A run past its time-out is no longer renewed: another panel may take it as lost.
    const limit = Date.now() - this.job.timeoutSeconds * 1000;
    const ids = [...this.running].filter(([, r]) => r.startedAt > limit).map(([id]) => id);
    await this.store.renew?.(this.job, ids).catch(() => undefined);
  }

  private async runOne(claimed: ClaimedJob): Promise<void> {
    const { app, job, store } = this;
    const { meta } = claimed;
    const lastAttempt = claimed.attempt > claimed.retryLimit;
    const slots = new SlotRecord(app, meta.scheduleId, meta.slot);
    const task = meta.taskId !== undefined ? taskOf(app, meta.taskId) : null;
    try {
      // A run retaken after its panel stopped, with no retry left: failed, not run again.
      if (claimed.attempt > claimed.retryLimit + 1)
        throw new Error('The panel running it stopped, and no retry is left');
      await slots.started();
      const ctx: JobContext = {
        app,
        log: app.log.child({ job: job.name, jobId: claimed.id, attempt: claimed.attempt }),
        attempt: claimed.attempt,
        lastAttempt,
        slot: meta.slot ? new Date(meta.slot) : null,
        key: meta.key ?? null,
        task,
      };
      await job.run(ctx, claimed.payload);
    } catch (error) {
      const message = errorText(error);
      app.log.warn({ job: job.name, jobId: claimed.id, err: message }, 'a job failed');
      await this.settle(store.fail(job, claimed, message));
      await this.settle(slots.ended(message));
      if (task) await this.settle(taskFailed(app, task.id, message, lastAttempt));
      return;
    }
    await this.settle(store.complete(job, [claimed.id]));
    await this.settle(slots.ended(null));
    if (task) await this.settle(app.services.tasks.finish(task.id, 'completed'));
  }

  /** Bookkeeping that fails (the database gone at shutdown) is logged, never thrown. */
  private async settle(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (err) {
      if (!this.stopped) this.app.log.warn({ err, job: this.job.name }, 'recording a job failed');
    }
  }
}

/** The run of a schedule's slot, written where the slot was taken (schedule_slots). */
class SlotRecord {
  constructor(
    private readonly app: FastifyInstance,
    private readonly scheduleId: number | undefined,
    private readonly slot: string | undefined,
  ) {}

  async started(): Promise<void> {
    if (this.scheduleId === undefined || this.slot === undefined) return;
    await this.app.db
      .updateTable('schedule_slots')
      .set((eb) => ({
        runs: eb('runs', '+', 1),
        started_at: new Date(this.app.services.clock()).toISOString(),
      }))
      .where('schedule_id', '=', this.scheduleId)
      .where('slot', '=', this.slot)
      .execute();
  }

  async ended(error: string | null): Promise<void> {
    if (this.scheduleId === undefined || this.slot === undefined) return;
    await this.app.db
      .updateTable('schedule_slots')
      .set({ finished_at: new Date(this.app.services.clock()).toISOString(), error })
      .where('schedule_id', '=', this.scheduleId)
      .where('slot', '=', this.slot)
      .execute();
  }
}

function taskOf(app: FastifyInstance, id: number): JobTask {
  return { id, event: (text, code) => app.services.tasks.addEvent(id, text, code) };
}

async function taskFailed(app: FastifyInstance, id: number, message: string, last: boolean) {
  const { tasks } = app.services;
  const code = (await tasks.events(id)).at(-1)?.code ?? 0;
  if (!last) return tasks.addEvent(id, `${message} (trying again)`, code);
  await tasks.addEvent(id, message, code);
  await tasks.finish(id, 'failed');
}
