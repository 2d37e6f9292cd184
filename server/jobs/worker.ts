import type { FastifyInstance } from 'fastify';
import { Batcher } from './batcher';
import { errorText } from './envelope';
import type { SlotRecord } from './slotRecord';
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
  /** The last claim took all it had room for: more may be due when a run ends. */
  private full = false;
  private stopped = false;
  private poll: NodeJS.Timeout | null = null;
  private lease: NodeJS.Timeout | null = null;

  /** Runs that ended well, written done together. */
  private readonly completed: Batcher<string>;

  constructor(
    private readonly app: FastifyInstance,
    private readonly job: Job,
    private readonly store: JobStore,
    private readonly slots: SlotRecord,
  ) {
    this.completed = new Batcher((ids) => store.complete(job, ids));
  }

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
    await Promise.all([...this.writes]);
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopped) {
      const room = this.job.concurrency - this.running.size;
      if (room <= 0) {
        this.full = true;
        return;
      }
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
          if (this.full) this.wake();
        });
        this.running.set(one.id, { startedAt: Date.now(), done });
      }
      this.full = claimed.length === room;
      if (!this.full) return;
    }
  }

  private async renew(): Promise<void> {
    // A run past its time-out is no longer renewed: another panel may take it as lost.
    const limit = Date.now() - this.job.timeoutSeconds * 1000;
    const ids = [...this.running].filter(([, r]) => r.startedAt > limit).map(([id]) => id);
    await this.store.renew?.(this.job, ids).catch(() => undefined);
  }

  /**
   * Runs one claimed job. Its place among the `concurrency` runs is held while the handler
   * runs; what is written after (its end, its slot's record, its task) goes on in the
   * background, batched with the other runs', and stop() waits for it.
   */
  private async runOne(claimed: ClaimedJob): Promise<void> {
    const { app, job, store, slots } = this;
    const { meta } = claimed;
    const lastAttempt = claimed.attempt > claimed.retryLimit;
    const task = meta.taskId !== undefined ? taskOf(app, meta.taskId) : null;
    // The slot's end is written after its start, never before (one may pass the other).
    let started: Promise<unknown> = Promise.resolve();
    const ended = (error: string | null) =>
      started.then(
        () => slots.end(meta, error),
        () => slots.end(meta, error),
      );
    try {
      // A run retaken after its panel stopped, with no retry left: failed, not run again.
      if (claimed.attempt > claimed.retryLimit + 1)
        throw new Error('The panel running it stopped, and no retry is left');
      started = slots.start(meta);
      this.track(started);
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
      this.track(store.fail(job, claimed, message));
      this.track(ended(message));
      if (task) this.track(taskFailed(app, task.id, message, lastAttempt));
      return;
    }
    this.track(this.completed.add(claimed.id));
    this.track(ended(null));
    if (task) this.track(app.services.tasks.finish(task.id, 'completed'));
  }

  /** Writes under way after runs ended. */
  private readonly writes = new Set<Promise<void>>();

  /** Bookkeeping that fails (the database gone at shutdown) is logged, never thrown. */
  private track(write: Promise<unknown>): void {
    const settled = write.then(
      () => undefined,
      (err: unknown) => {
        if (!this.stopped) this.app.log.warn({ err, job: this.job.name }, 'recording a job failed');
      },
    );
    this.writes.add(settled);
    void settled.finally(() => this.writes.delete(settled));
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
