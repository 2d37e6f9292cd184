import { type OpName, ops } from '../../resources/agent/ops';
import { type OpProgress, type OpReply, opRequestSchema } from '../../resources/agent/protocol';
import { KeyedLocks } from '../lib/locks';
import { opErrorOf } from '../lib/opError';
import { agentFeatures } from '../features.gen';
import { agentOps } from './agent';
import { cleanupOps } from './cleanup';
import { systemOps } from './system';
import type { AgentEventName, AgentEvents, OpContext, OpLocks, OpTable } from './types';

/** Every op the agent implements, one module an area: the type insists on all of them. */
export const opTable = {
  ...systemOps,
  ...cleanupOps,
  ...agentOps,
  // The feature folders' ops (features/<name>/agent.ts), gathered by scripts/gen-features.mjs;
  // a unit test checks that every declared op has its implementation.
  ...Object.assign({}, ...agentFeatures.map((f) => f.ops)),
} as OpTable;

/**
 * The locks of every op that changes something shared, in one place: an op holds its keys from
 * before its first read until its last write, so two changes of one file never lose one.
 * Keys name the file or service: `users` (passwd, shadow, group: useradd, userdel, chpasswd),
 * `authorized_keys:<user>`, `ssh_keys:<user>` (the user's own key pair), `sshd_config` with
 * `service:sshd` (the SSH settings write the config and reload the service), `service:<name>`.
 */
export const opLocks: OpLocks = {
  'system.hostname': () => ['hostname'],
  'system.cleanup': () => ['cleanup'],
  ...Object.assign({}, ...agentFeatures.map((f) => f.locks ?? {})),
};

/**
 * Raises an agent event (see AgentEvents): the subscribers of every feature folder, in the
 * folders' order, each awaited; the first error is the caller's.
 */
export async function emitAgentEvent<K extends AgentEventName>(
  event: K,
  payload: AgentEvents[K],
): Promise<void> {
  for (const feature of agentFeatures) {
    const subscriber = feature.on?.[event] as
      ((payload: AgentEvents[K]) => Promise<void>) | undefined;
    if (subscriber) await subscriber(payload);
  }
}

/** The agent's locks: one set for the whole process, so every connection shares them. */
export const agentLocks = new KeyedLocks();

/**
 * Runs one op: the name must be known, the arguments must pass the shared schema, and the op
 * holds its declared locks while it runs. Failures come back as a structured error
 * (`{code, message, field}`), never as a crash of the agent. Progress the op reports goes to
 * `progress` with the request's op id.
 */
export async function dispatch(
  request: unknown,
  table: Partial<OpTable> = opTable,
  locks: { table: OpLocks; held: KeyedLocks } = { table: opLocks, held: agentLocks },
  progress: (event: OpProgress) => void = () => undefined,
): Promise<OpReply> {
  const parsed = opRequestSchema.safeParse(request);
  if (!parsed.success || !(parsed.data.name in ops))
    return { ok: false, error: { code: 'unsupported', message: 'Unknown operation' } };
  const name = parsed.data.name as OpName;
  const impl = table[name] as ((args: unknown, ctx: OpContext) => Promise<unknown>) | undefined;
  if (!impl) {
    return {
      ok: false,
      error: { code: 'unsupported', message: `This agent cannot do ${name}; update it` },
    };
  }
  const args = ops[name].args.safeParse(parsed.data.args ?? {});
  if (!args.success) {
    const first = args.error.issues[0];
    const field = first?.path.map(String).join('.');
    return {
      ok: false,
      error: {
        code: 'invalid',
        message: `Invalid arguments: ${args.error.issues.map((i) => i.message).join('; ')}`,
        ...(field ? { field } : {}),
      },
    };
  }
  const keysOf = locks.table[name] as ((args: unknown) => string[]) | undefined;
  const opId = parsed.data.id;
  const ctx: OpContext = {
    opId,
    progress(event, code) {
      if (opId) progress({ opId, event: event.slice(0, 500), code });
    },
    emit: emitAgentEvent,
  };
  try {
    const data = await locks.held.with(keysOf?.(args.data) ?? [], () => impl(args.data, ctx));
    return { ok: true, data };
  } catch (error) {
    return { ok: false, error: opErrorOf(error) };
  }
}
