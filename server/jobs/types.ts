import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { TASK_KINDS } from '../../resources/clone-events';
import type { Db } from '../db/database';

/**
 * Work that runs later, repeats, or outlives a request (DESIGN: "Scheduled and background
 * work"). A feature declares its jobs in its server.ts (`jobs: [defineJob(...)]`) and reaches
 * the queue as `app.jobs`; the queue is a table in the panel's SQLite file on the embedded
 * default (server/jobs/sqliteRunner.ts) and pg-boss on PostgreSQL (server/jobs/pgBossRunner.ts).
 */

/** How a failed run is tried again: `limit` more runs, `backoffSeconds` * 2^(n-1) apart, jittered. */
export interface RetryPolicy {
  limit: number;
  backoffSeconds: number;
}

/** The task a long job reports its progress to (pushed to its owner's browsers). */
export interface TaskSpec {
  userId: number;
  serverId?: number | null;
  /** One the messages panel lists (resources/clone-events.ts). */
  kind: (typeof TASK_KINDS)[number];
  name: string;
}

/** One step of a long job's task: a line in words and a progress code (progress = 10 x code %). */
export interface JobTask {
  id: number;
  event(text: string, code: number): Promise<void>;
}

export interface JobContext {
  app: FastifyInstance;
  log: FastifyBaseLogger;
  /** This run's number: 1 for the first, 2 for the first retry... */
  attempt: number;
  /** The run that ends in failure for good when it throws. */
  lastAttempt: boolean;
  /** The slot of the schedule this run is for (its due time), or null outside a schedule. */
  slot: Date | null;
  /** The idempotency key the job was enqueued with, if any. */
  key: string | null;
  /** The job's task (jobs declared with `task`), or null. */
  task: JobTask | null;
}

/** What a feature writes: a name, a zod schema of the payload, and the work. */
export interface JobDefinition<Schema extends z.ZodType> {
  /** `<feature>.<what>`, unique in the panel: letters, digits, `.`, `-`, `_`. */
  name: string;
  payload: Schema;
  handler(ctx: JobContext, payload: z.output<Schema>): Promise<unknown>;
  /** Default: 3 more runs, 10 s, 20 s, 40 s apart (each up to twice that, jittered). */
  retry?: RetryPolicy;
  /**
   * How long a run may take before another panel may take it again as a lost run (the panel
   * that ran it stopped). Default 15 minutes.
   */
  timeoutSeconds?: number;
  /** Runs of this job at once in one panel. Default 5. */
  concurrency?: number;
  /**
   * A job that charges money or changes a server: `enqueue` refuses it without an idempotency
   * `key`, so a retried request or a second panel cannot run it twice.
   */
  keyed?: boolean;
  /** A long job: a task row made with the job (in the caller's transaction), its events pushed. */
  task?(payload: z.output<Schema>): TaskSpec;
}

/**
 * A declared job, its payload type kept for `enqueue` only (`Input` is what the caller hands
 * in); the queue reaches the payload through `run` and `taskOf`, which parse it first.
 */
export interface Job<Input = unknown> {
  readonly name: string;
  readonly retry: RetryPolicy;
  readonly timeoutSeconds: number;
  readonly concurrency: number;
  readonly keyed: boolean;
  /** The payload as it is stored: parsed (defaults filled in); throws a ZodError. */
  parse(raw: unknown): unknown;
  run(ctx: JobContext, raw: unknown): Promise<unknown>;
  taskOf(raw: unknown): TaskSpec | null;
  /** Never set: carries `Input` for the compiler. */
  readonly input?: Input;
}

/** A schedule a feature declares: kept in the `schedules` table, found there by its name. */
export interface ScheduleDeclaration<Input = unknown> {
  name: string;
  /** Five fields (minute precision) or six (seconds first), croner's syntax. */
  cron: string;
  /** An IANA zone (`Europe/Lisbon`); UTC by default. */
  timezone?: string;
  job: Job<Input>;
  payload: Input;
  /** Also run once when a panel starts (work a stopped panel left behind). */
  atStart?: boolean;
}

export interface EnqueueOptions {
  /** The caller's transaction: the job exists if and only if it commits. */
  trx?: Db;
  /** Not before this time (the panel's clock, epoch ms). */
  runAt?: number;
  /**
   * An idempotency key: a second enqueue of the same job with the same key (ever, for 90 days)
   * does nothing. Jobs that charge money or change a server carry one.
   */
  key?: string;
}

export interface Enqueued {
  /** False when the key was used before: nothing was enqueued. */
  enqueued: boolean;
  id: string | null;
  /** The task of a long job. */
  taskId: number | null;
}

export interface ScheduleInput {
  name: string;
  cron: string;
  timezone?: string;
  job: string;
  payload?: unknown;
  enabled?: boolean;
}

/** `app.jobs`: the one interface for everything that runs later. */
export interface JobQueue {
  readonly engine: 'sqlite' | 'pg-boss';
  enqueue<Input>(
    job: Job<Input> | string,
    payload: Input,
    options?: EnqueueOptions,
  ): Promise<Enqueued>;
  /**
   * Adds or changes a schedule by name (a feature's own, such as a backup policy's). A new
   * schedule's slots count from now; a changed one keeps its last slot. Refuses a bad cron
   * expression, zone, job or payload.
   */
  schedule(input: ScheduleInput, trx?: Db): Promise<number>;
  unschedule(name: string, trx?: Db): Promise<void>;
  /** Looks for due work now instead of at the next poll (after a transaction that enqueued). */
  wake(): void;
  /** Where a job stands (the id `enqueue` answered), or null when it is unknown or pruned. */
  status(job: Job | string, id: string): Promise<JobStatus | null>;
}

export interface JobStatus {
  state: 'queued' | 'running' | 'done' | 'failed';
  /** Runs started so far. */
  attempts: number;
  /** The last failed run's error. */
  error: string | null;
}

/** Where the jobs live: the two runners' common part (the queue and workers drive it). */
export interface JobStore {
  readonly engine: JobQueue['engine'];
  start(jobs: readonly Job[]): Promise<void>;
  stop(): Promise<void>;
  /** Inserts jobs inside `trx`; returns their ids in order. */
  insert(trx: Db, jobs: readonly NewJob[]): Promise<string[]>;
  /** Claims up to `limit` due jobs of one name for this panel. */
  claim(job: Job, limit: number): Promise<ClaimedJob[]>;
  complete(job: Job, ids: readonly string[]): Promise<void>;
  /** Records a failed run: queued again after the backoff, or failed for good. */
  fail(job: Job, claimed: ClaimedJob, error: string): Promise<void>;
  status(job: Job, id: string): Promise<JobStatus | null>;
  /** Keeps this panel's claim on running jobs (the SQLite runner's lease); optional. */
  renew?(job: Job, ids: readonly string[]): Promise<void>;
}

/** What is stored with a job besides its payload. */
export interface JobMeta {
  key?: string;
  taskId?: number;
  scheduleId?: number;
  /** ISO time of the schedule slot. */
  slot?: string;
}

export interface NewJob {
  name: string;
  payload: unknown;
  meta: JobMeta;
  /** Epoch ms on the panel's clock; now when absent. */
  runAt?: number;
  retry: RetryPolicy;
  timeoutSeconds: number;
}

export interface ClaimedJob {
  id: string;
  payload: unknown;
  meta: JobMeta;
  /** 1 for the first run. */
  attempt: number;
  retryLimit: number;
}
