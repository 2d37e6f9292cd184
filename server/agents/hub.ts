import type { Namespace } from 'socket.io';
import {
  DEFAULT_OP_TIMEOUT_MS,
  EVENTS,
  type OpErrorCode,
  type OpReply,
  opErrorSchema,
} from '../../resources/agent/protocol';
import { type OpArgs, type OpName, type OpResult, ops } from '../../resources/agent/ops';
import { agentRoom } from './rooms';

/** The server's agent is not connected: the op fails at once, nothing is queued. */
export class AgentOfflineError extends Error {}
/** The agent did not answer within the op's time. */
export class AgentTimeoutError extends Error {}
/**
 * The agent answered with a refusal or a failure: its message is for the user, its code says
 * what kind (server/agents/runOp.ts maps it to an HTTP answer), its field which argument.
 */
export class AgentOpError extends Error {
  constructor(
    message: string,
    readonly code: OpErrorCode = 'failed',
    readonly field?: string,
  ) {
    super(message);
  }

  /** The reply's error: structured, or the bare message of an agent from before. */
  static of(error: unknown): AgentOpError {
    if (typeof error === 'string') return new AgentOpError(error);
    const parsed = opErrorSchema.safeParse(error);
    if (!parsed.success) return new AgentOpError('The server answered with something unexpected');
    return new AgentOpError(parsed.data.message, parsed.data.code, parsed.data.field);
  }
}

/**
 * Calls ops on agents: request/ack over the agent's room, which also works across panels
 * with the Redis adapter. Arguments are validated before they leave, answers when they come.
 */
export class AgentHub {
  constructor(
    private readonly agents: Namespace,
    /** Caps every op's time-out (tests use a short one; production uses the ops' own). */
    private readonly maxTimeoutMs = Number.POSITIVE_INFINITY,
  ) {}

  async isOnline(serverId: number): Promise<boolean> {
    return (await this.agents.in(agentRoom(serverId)).fetchSockets()).length > 0;
  }

  async call<N extends OpName>(
    serverId: number,
    name: N,
    args: OpArgs<N>,
    options: { timeoutMs?: number } = {},
  ): Promise<OpResult<N>> {
    const def = ops[name];
    const parsed = def.args.parse(args);
    if (!(await this.isOnline(serverId))) {
      throw new AgentOfflineError('The server is offline: its agent is not connected');
    }
    const timeoutMs = Math.min(
      options.timeoutMs ?? def.timeoutMs ?? DEFAULT_OP_TIMEOUT_MS,
      this.maxTimeoutMs,
    );
    let replies: OpReply[];
    try {
      replies = (await this.agents
        .to(agentRoom(serverId))
        .timeout(timeoutMs)
        .emitWithAck(EVENTS.op, { name, args: parsed })) as OpReply[];
    } catch {
      throw new AgentTimeoutError(
        `The server did not answer within ${Math.round(timeoutMs / 1000)} s`,
      );
    }
    // One agent a server (a new connection replaces the old); an empty list means it just left.
    const reply = replies[0];
    if (!reply) throw new AgentOfflineError('The server went offline before it answered');
    if (!reply.ok) throw AgentOpError.of(reply.error);
    const result = def.result.safeParse(reply.data);
    if (!result.success) throw new AgentOpError('The server answered with something unexpected');
    return result.data as OpResult<N>;
  }
}
