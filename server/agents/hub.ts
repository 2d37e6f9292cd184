import { randomUUID } from 'node:crypto';
import type { Namespace, Socket } from 'socket.io';
import {
  DEFAULT_OP_TIMEOUT_MS,
  EVENTS,
  type OpErrorCode,
  type OpDone,
  type OpProgress,
  type OpReply,
  opDoneSchema,
  opErrorSchema,
  opProgressSchema,
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
/**
 * Where the steps and replies of ops that no call on this panel waits for go: ops started
 * before a panel restart, or by another panel, that the agent finished after reconnecting.
 * The tasks module (server/tasks/) records them.
 */
export interface OrphanOps {
  progress(serverId: number, progress: OpProgress): void;
  done(serverId: number, done: OpDone): void;
}

export class AgentHub {
  /** Listeners of the ops under way on this panel, by op id. */
  private readonly listeners = new Map<
    string,
    {
      serverId: number;
      onProgress?: (progress: OpProgress) => void;
      /** The reply, when it comes as an `op:done` event rather than the ack. */
      onDone: (reply: OpReply) => void;
    }
  >();

  /** Set by the tasks module; without it, orphan steps and replies are dropped. */
  orphans?: OrphanOps;

  constructor(
    private readonly agents: Namespace,
    /** Caps every op's time-out (tests use a short one; production uses the ops' own). */
    private readonly maxTimeoutMs = Number.POSITIVE_INFINITY,
  ) {
    agents.on('connection', (socket: Socket) => {
      socket.on(EVENTS.progress, (payload: unknown) => this.progress(socket, payload));
      socket.on(EVENTS.done, (payload: unknown) => this.done(socket, payload));
    });
  }

  /**
   * A progress event of an agent: to the listener of its op, if the op runs on this panel and
   * belongs to that agent's server (another server cannot feed it). Anything else is dropped.
   */
  private progress(socket: Socket, payload: unknown): void {
    const parsed = opProgressSchema.safeParse(payload);
    if (!parsed.success) return;
    const listener = this.listeners.get(parsed.data.opId);
    const serverId = (socket.data as { serverId?: number } | undefined)?.serverId;
    if (serverId === undefined) return;
    try {
      if (!listener) this.orphans?.progress(serverId, parsed.data);
      else if (listener.serverId === serverId) listener.onProgress?.(parsed.data);
    } catch {
      // A listener's failure is its own; the op goes on.
    }
  }

  /** A reply that came after a reconnection: to the call still waiting, or to the orphans. */
  private done(socket: Socket, payload: unknown): void {
    const parsed = opDoneSchema.safeParse(payload);
    const serverId = (socket.data as { serverId?: number } | undefined)?.serverId;
    if (!parsed.success || serverId === undefined) return;
    const listener = this.listeners.get(parsed.data.opId);
    try {
      if (!listener) this.orphans?.done(serverId, parsed.data);
      else if (listener.serverId === serverId) listener.onDone(parsed.data.reply as OpReply);
    } catch {
      // As above.
    }
  }

  async isOnline(serverId: number): Promise<boolean> {
    return (await this.agents.in(agentRoom(serverId)).fetchSockets()).length > 0;
  }

  async call<N extends OpName>(
    serverId: number,
    name: N,
    args: OpArgs<N>,
    options: {
      timeoutMs?: number;
      /** The op's id (a new uuid when not given): its progress events carry it. */
      opId?: string;
      /** Called with each progress event the agent sends for this op while it runs. */
      onProgress?: (progress: OpProgress) => void;
    } = {},
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
    const opId = options.opId ?? randomUUID();
    let onDone!: (reply: OpReply) => void;
    const doneLater = new Promise<OpReply[]>((resolve) => (onDone = (r) => resolve([r])));
    this.listeners.set(opId, { serverId, onProgress: options.onProgress, onDone });
    let replies: OpReply[];
    try {
      // The ack, or the reply the agent sends on its next connection if this one dropped.
      replies = await Promise.race([
        this.agents
          .to(agentRoom(serverId))
          .timeout(timeoutMs)
          .emitWithAck(EVENTS.op, { id: opId, name, args: parsed }) as Promise<OpReply[]>,
        doneLater,
      ]);
    } catch {
      throw new AgentTimeoutError(
        `The server did not answer within ${Math.round(timeoutMs / 1000)} s`,
      );
    } finally {
      this.listeners.delete(opId);
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
