import type { z } from 'zod';
import type { OpName, OpResult, ops } from '../../resources/agent/ops';

/** An op's implementation: arguments already validated by the shared schema. */
export type OpImpl<N extends OpName> = (
  args: z.output<(typeof ops)[N]['args']>,
) => Promise<OpResult<N>>;

export type OpTable = { [N in OpName]: OpImpl<N> };
