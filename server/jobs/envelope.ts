import { z } from 'zod';
import type { JobMeta, RetryPolicy } from './types';

/** A job as both stores keep it: the payload and what the platform adds (key, task, slot). */
export const envelopeSchema = z.object({
  payload: z.unknown(),
  meta: z.object({
    key: z.string().optional(),
    taskId: z.number().int().optional(),
    scheduleId: z.number().int().optional(),
    slot: z.string().optional(),
  }),
});

/**
 * A stored job's payload and meta; something else (written by hand, say) is taken as a bare
 * payload, which the job's schema then judges, failing the run in words rather than the claim.
 */
export function openEnvelope(raw: unknown): { payload: unknown; meta: JobMeta } {
  const parsed = envelopeSchema.safeParse(raw);
  return parsed.success ? parsed.data : { payload: raw, meta: {} };
}

export const envelope = (payload: unknown, meta: JobMeta) => ({ payload: payload ?? null, meta });

/**
 * The wait before run `attempt + 1` after run `attempt` failed, as pg-boss computes it:
 * backoff x 2^(attempt-1), plus up to as much again at random, so retries of many jobs that
 * failed together spread out.
 */
export function backoffMs(retry: Pick<RetryPolicy, 'backoffSeconds'>, attempt: number): number {
  const base = retry.backoffSeconds * 1000 * 2 ** Math.min(16, Math.max(0, attempt - 1));
  return Math.round(base * (1 + Math.random()));
}

/** An error as a job's record keeps it: its message, at most 2,000 characters. */
export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message || error.name : String(error)).slice(0, 2000);
