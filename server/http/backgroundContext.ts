/**
 * A handler context for work the panel does on a user's behalf with no request behind it (the
 * undo of an install a stopped panel left, a deploy a webhook started): the user's own rights
 * on the server, no admin acting, no request to answer. Null when the user or server is gone.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerContext } from './handlers';

export async function backgroundContext(
  app: FastifyInstance,
  userId: number,
  serverId: number,
  /** Who did it, in the activity log (the `user agent` of a request). */
  doer: string,
): Promise<HandlerContext | null> {
  const [user, server] = await Promise.all([
    app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst(),
    app.db.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirst(),
  ]);
  if (!user || !server) return null;
  // Nothing answers: a handler that sets a status code sets it on nothing.
  // Stubs of Fastify's objects: a background handler only sets a status and logs.
  const reply = { code: () => reply } as unknown as FastifyReply;
  return {
    app,
    req: { log: app.log } as unknown as FastifyRequest,
    reply,
    caller: {
      id: user.id,
      email: user.email,
      isAdmin: false,
      isStaff: false,
      planId: user.plan_id,
      actorId: null,
      sessionId: null,
      row: user,
      photoUpdatedAt: null,
      background: doer,
    },
    params: {},
    uid: user.id,
    server,
    child: undefined,
    within: undefined,
    webapp: null,
    loaded: {},
    query: {},
    body: undefined,
    origin: { ip: '127.0.0.1', userAgent: `stackdeck (${doer})` },
  };
}
