import type { z } from 'zod';
import type { OpName, OpResult, ops } from '../../resources/agent/ops';

/** An op's arguments, already validated by the shared schema. */
export type OpArgsOf<N extends OpName> = z.output<(typeof ops)[N]['args']>;

/** What a running op knows of its request, and how it reports progress. */
export interface OpContext {
  /** The panel's id of this run (absent when an old panel sent none). */
  opId?: string;
  /** A step of a long op, for the panel's task events; dropped when the op has no id. */
  progress(event: string, code: number): void;
}

/** An op's implementation. */
export type OpImpl<N extends OpName> = (args: OpArgsOf<N>, ctx?: OpContext) => Promise<OpResult<N>>;

export type OpTable = { [N in OpName]: OpImpl<N> };

/**
 * The locks an op holds while it runs, from its arguments: ops that touch the same file or
 * service name the same key (`authorized_keys:alice`, `sshd_config`, `users`) and run one at a
 * time. An op without an entry takes no lock (reads, and ops that touch nothing shared).
 */
export type OpLocks = { [N in OpName]?: (args: OpArgsOf<N>) => string[] };
