import { sessions } from '../../resources/sessions';
import { recordActivity } from '../../server/handlers/activity';
import { notFound } from '../../server/http/errors';
import { defineHandlers, loadedChild } from '../../server/http/handlers';

/**
 * The account holder's sign-in sessions. The guard has matched `{uid}` to the caller and refused
 * an admin (directly or acting); a session is looked up through its user, so another user's
 * answers 404 like one that does not exist. Revoking goes through `Sessions.revoke`/`revokeAll`,
 * which close the live sockets of the revoked sessions at once.
 */
export const sessionHandlers = defineHandlers(sessions, {
  actions: {
    async list(ctx) {
      const current = ctx.caller?.sessionId ?? null;
      const rows = await ctx.app.services.sessions.active(ctx.uid);
      const data = rows.map((row) => ({
        id: row.id,
        created_at: row.created_at,
        expires_at: row.expires_at,
        ip: row.ip,
        user_agent: row.user_agent,
        current: row.id === current,
        by_admin: row.actor_id !== null,
      }));
      return { data, total: data.length };
    },
    async revoke(ctx) {
      // Loaded through `{uid}` by the request hook; an ended one answers 404 here.
      const { id } = loadedChild(ctx.child);
      if (!(await ctx.app.services.sessions.revokeOf(ctx.uid, id))) throw notFound();
      await recordActivity(
        ctx,
        id === ctx.caller?.sessionId ? 'Signed out this session' : 'Signed out a session',
      );
      return { id };
    },
    async revokeOthers(ctx) {
      const revoked = await ctx.app.services.sessions.revokeAll(ctx.uid, {
        except: ctx.caller?.sessionId,
      });
      await recordActivity(ctx, `Signed out every other session (${revoked} signed out)`);
      return { revoked };
    },
  },
});
