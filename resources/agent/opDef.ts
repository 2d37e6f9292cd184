/**
 * The shape of an agent op declaration. Its own file so that a feature's `resource.ts` can
 * declare ops without importing the registry (resources/agent/ops.ts), which imports the
 * features: the registry imports them, never the other way round.
 */
import { z } from 'zod';

export interface OpDef<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  args: A;
  result: R;
  /** Longer than the default for ops that wait on the system (package cleanup, key generation). */
  timeoutMs?: number;
}

export const op = <A extends z.ZodType, R extends z.ZodType>(
  args: A,
  result: R,
  timeoutMs?: number,
) => ({ args, result, timeoutMs }) satisfies OpDef<A, R>;

export const noArgs = z.object({});
