import type { HandlerContext } from '../http/handlers';
import { whoOf } from '../http/who';

/**
 * Writes an account activity entry for `userId` (the path's user by default). When an admin
 * acts, directly or through an impersonation token, both ids are kept.
 */
export async function recordActivity(
  ctx: HandlerContext<unknown, unknown>,
  message: string,
  userId = ctx.uid,
) {
  const caller = ctx.caller;
  const actorId = caller ? (caller.actorId ?? (caller.id !== userId ? caller.id : null)) : null;
  const who = await whoOf(ctx.app.db, caller, userId);
  await ctx.app.services.logs.activity({ userId, actorId, who, message, ip: ctx.origin.ip });
}

/** j***@example.com: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
