import type { z } from 'zod';
import type { OpName, OpResult, ops } from '../../resources/agent/ops';
import type { OpDef } from '../../resources/agent/opDef';

/** An op's arguments, already validated by the shared schema. */
export type OpArgsOf<N extends OpName> = z.output<(typeof ops)[N]['args']>;

/**
 * The agent's events between features, by name and payload: an op of one feature raises one
 * (`app.removing` from `webapp.remove`) and other features' agent sides subscribe (`on`), so
 * the op imports none of them. Declared by the owner by declaration merging
 * (`declare module '../../agent/ops/types' { interface AgentEvents { ... } }`). Subscribers run
 * in the feature folders' order, each awaited; the first error fails the op that raised it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the owners
export interface AgentEvents {}

export type AgentEventName = keyof AgentEvents & string;

/** A feature's subscribers to agent events (`on` of defineAgentFeature). */
export type AgentSubscribers = {
  [K in AgentEventName]?: (payload: AgentEvents[K]) => Promise<void>;
};

/** What a running op knows of its request, and how it reports progress. */
export interface OpContext {
  /** The panel's id of this run (absent when an old panel sent none). */
  opId?: string;
  /** A step of a long op, for the panel's task events; dropped when the op has no id. */
  progress(event: string, code: number): void;
  /** Raises an agent event: every feature's subscriber runs, in order, before this returns. */
  emit<K extends AgentEventName>(event: K, payload: AgentEvents[K]): Promise<void>;
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

/** An op implementation of a feature, typed by the feature's own declaration. */
type FeatureOpImpl<D extends OpDef> = (
  args: z.output<D['args']>,
  ctx: OpContext,
) => Promise<z.input<D['result']>>;

/**
 * The agent side of a feature (`features/<name>/agent.ts` exports one as `agent`): an
 * implementation for every op the feature declares, and the locks they hold (see OpLocks).
 */
export interface AgentFeature<D extends Record<string, OpDef> = Record<string, OpDef>> {
  ops: { [K in keyof D]: FeatureOpImpl<D[K]> };
  locks?: { [K in keyof D]?: (args: z.output<D[K]['args']>) => string[] };
  /** What this feature does when another feature's op raises an event (see AgentEvents). */
  on?: AgentSubscribers;
}

/** Checks a feature's agent side against its declared ops (keeps the literal op names). */
export const defineAgentFeature = <D extends Record<string, OpDef>>(
  _declared: D,
  feature: AgentFeature<D>,
): AgentFeature => feature as unknown as AgentFeature;
