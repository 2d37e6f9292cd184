import type { Socket } from 'socket.io-client';
import { EVENTS, type OpReply } from '../resources/agent/protocol';

/** The ids of the ops running in this agent, for `agent.running`. */
export const runningOps = new Set<string>();

/**
 * Answers the panel's op requests on a connection: each op runs to its end even when the
 * connection drops meanwhile. Its reply then goes out as an `op:done` event on the current
 * connection (socket.io buffers it until the agent is connected again), so a long op that
 * outlives a panel restart is reported to the panel that is there, never lost.
 */
export function serveOps(
  current: () => Socket,
  run: (request: unknown, progress: (event: unknown) => void) => Promise<OpReply>,
): (request: unknown, ack?: (reply: unknown) => void) => Promise<void> {
  return async (request, ack) => {
    const socket = current();
    const via = socket.id;
    const opId =
      request && typeof request === 'object' && 'id' in request && typeof request.id === 'string'
        ? request.id
        : undefined;
    if (opId) runningOps.add(opId);
    let reply: OpReply;
    try {
      reply = await run(request, (event) => current().emit(EVENTS.progress, event));
    } finally {
      if (opId) runningOps.delete(opId);
    }
    const now = current();
    if (opId && (!now.connected || now.id !== via)) now.emit(EVENTS.done, { opId, reply });
    else ack?.(reply);
  };
}
