import type { z } from 'zod';
import type { Job, JobDefinition, ScheduleDeclaration } from './types';

const NAME = /^[a-z][\w.-]{0,99}$/i;

export const DEFAULT_RETRY = { limit: 3, backoffSeconds: 10 } as const;
export const DEFAULT_TIMEOUT_SECONDS = 15 * 60;
export const DEFAULT_CONCURRENCY = 5;

/**
 * Declares a job: `features/<name>/server.ts` lists it under `jobs`. The payload is parsed with
 * the schema when it is enqueued and again before each run, so the handler gets it typed and a
 * stored payload an older panel wrote is checked too.
 */
export function defineJob<Schema extends z.ZodType>(
  def: JobDefinition<Schema>,
): Job<z.input<Schema>> {
  if (!NAME.test(def.name)) throw new Error(`job name "${def.name}": letters, digits, . - _`);
  const retry = def.retry ?? DEFAULT_RETRY;
  if (!Number.isInteger(retry.limit) || retry.limit < 0 || retry.backoffSeconds < 1)
    throw new Error(`job ${def.name}: retry limit >= 0 and backoff >= 1 s`);
  return {
    name: def.name,
    retry: { limit: retry.limit, backoffSeconds: Math.round(retry.backoffSeconds) },
    timeoutSeconds: def.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    concurrency: def.concurrency ?? DEFAULT_CONCURRENCY,
    keyed: def.keyed ?? false,
    parse: (raw) => def.payload.parse(raw),
    run: (ctx, raw) => def.handler(ctx, def.payload.parse(raw)),
    taskOf: (raw) => (def.task ? def.task(def.payload.parse(raw)) : null),
  };
}

/** Declares a built-in schedule of a job (a feature's `schedules`). */
export const defineSchedule = <Input>(s: ScheduleDeclaration<Input>): ScheduleDeclaration<Input> =>
  s;
