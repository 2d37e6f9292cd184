import type { OpArgs, OpName, OpResult } from '../../resources/agent/ops';
import type { ServerRow } from '../db/schema';
import { HttpError, fieldError } from '../http/errors';
import type { HandlerContext } from '../http/handlers';
import { whoOf } from '../http/who';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from './hub';

/**
 * What the user reads when an op fails, by cause. The agent's own errors by their code: one
 * that names an argument is a 400 with the message at that field (the form shows it there),
 * a clash 409, a missing thing 404, an agent too old for the op 502, any other refusal or
 * failure 422 with the agent's message.
 */
export function httpErrorOf(error: unknown): HttpError {
  if (error instanceof AgentOfflineError) return new HttpError(409, error.message);
  if (error instanceof AgentTimeoutError) return new HttpError(504, error.message);
  if (error instanceof AgentOpError) {
    if (error.field) return fieldError(error.field, error.message);
    if (error.code === 'invalid') return new HttpError(400, error.message);
    if (error.code === 'conflict') return new HttpError(409, error.message);
    if (error.code === 'not_found') return new HttpError(404, error.message);
    if (error.code === 'unsupported') return new HttpError(502, error.message);
    return new HttpError(422, error.message);
  }
  return new HttpError(500, 'The operation failed');
}

/**
 * Runs an op on the request's server and leaves a line in its activity log: pending while it
 * runs, then done, or failed with the reason. The actor is kept when an admin acts for the user.
 */
export async function runOp<N extends OpName>(
  ctx: HandlerContext<unknown, unknown>,
  message: string,
  name: N,
  args: OpArgs<N>,
  server: ServerRow = ctx.server,
): Promise<OpResult<N>> {
  const { serverLog } = ctx.app.services;
  const caller = ctx.caller;
  const entry = await serverLog.begin({
    serverId: server.id,
    userId: server.user_id,
    actorId: caller ? (caller.actorId ?? (caller.id !== server.user_id ? caller.id : null)) : null,
    who: await whoOf(ctx.app.db, caller, server.user_id),
    message,
  });
  try {
    const result = await ctx.app.agents.call(server.id, name, args);
    await serverLog.finish(entry, null);
    return result;
  } catch (error) {
    const http = httpErrorOf(error);
    if (http.statusCode === 500) ctx.req.log.error({ err: error, op: name }, 'op failed');
    await serverLog.finish(entry, http.message);
    throw http;
  }
}

/** A live read (services, SSH settings): the same errors, no activity line. */
export async function readOp<N extends OpName>(
  ctx: HandlerContext<unknown, unknown>,
  name: N,
  args: OpArgs<N>,
): Promise<OpResult<N>> {
  try {
    return await ctx.app.agents.call(ctx.server.id, name, args);
  } catch (error) {
    const http = httpErrorOf(error);
    if (http.statusCode === 500) ctx.req.log.error({ err: error, op: name }, 'read failed');
    throw http;
  }
}
