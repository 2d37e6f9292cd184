/**
 * The Roundcube sign-on calls: the panel checks that the caller owns the server (so its
 * mailboxes), that the app is a Roundcube app there and the mailbox is on that server, has the
 * app's server take the plugin and key (idempotent), then mints the token. The browser posts
 * it to the app; the panel stores no mailbox password and the token is good once, for a minute.
 */
import type { FastifyInstance } from 'fastify';
import { readOp } from '../../server/agents/runOp';
import { recordActivity } from '../../server/handlers/activity';
import { HttpError, forbidden } from '../../server/http/errors';
import { type HandlerContext, defineHandlers, webappOf } from '../../server/http/handlers';
import { addressOf, mailEnabled, serverMailboxes } from '../mail/serverApi';
import { appServesHttps } from '../ssl/serverApi';
import type { WebappRow } from '../webapps/serverApi';
import { mintSsoToken, newSsoKey } from './serverSsoToken';
import { roundcubeSso } from './ssoResource';

/** The app's signing key, made and sealed the first time it is needed. */
export async function ssoKeyOf(app: FastifyInstance, row: WebappRow): Promise<string> {
  const stored = () =>
    app.db
      .selectFrom('roundcube_sso')
      .select('sso_key')
      .where('webapp_id', '=', row.id)
      .executeTakeFirst();
  let found = await stored();
  if (!found) {
    // Another request may make it meanwhile: the first one stored is the key.
    await app.db
      .insertInto('roundcube_sso')
      .values({
        webapp_id: row.id,
        server_id: row.server_id,
        sso_key: app.services.box.seal(newSsoKey()),
        created_at: new Date(app.services.clock()).toISOString(),
      })
      .onConflict((oc) => oc.column('webapp_id').doNothing())
      .execute();
    found = await stored();
  }
  if (!found) throw new Error(`roundcube_sso: no key for app ${row.id}`);
  return app.services.box.open(found.sso_key);
}

/** The server's owner, signed in as themselves (not an admin acting for them). */
const isOwner = (ctx: HandlerContext) =>
  Boolean(ctx.caller && ctx.caller.actorId === null && ctx.caller.id === ctx.server.user_id);

/** The app, a Roundcube app that is not on its way out. */
function roundcubeOf(ctx: HandlerContext): WebappRow {
  const app = webappOf(ctx);
  if (app.webapp_type !== 'roundcube')
    throw new HttpError(409, `${app.name} is not a Roundcube app`);
  if (app.status === 'deleting') throw new HttpError(409, `${app.name} is being removed`);
  return app;
}

/** Where the app answers: https once its server serves a certificate for it (a post to http would be redirected, and lose its body). */
async function urlOf(ctx: HandlerContext, app: WebappRow): Promise<string> {
  const domain = (JSON.parse(app.domains) as string[])[0];
  if (!domain) throw new HttpError(409, `${app.name} has no domain`);
  const scheme = (await appServesHttps(ctx.app.db, app.id)) ? 'https' : 'http';
  return `${scheme}://${domain}/`;
}

export const ssoHandlers = defineHandlers(roundcubeSso, {
  actions: {
    async state(ctx) {
      const app = roundcubeOf(ctx);
      return {
        url: await urlOf(ctx, app),
        mailboxes: await serverMailboxes(ctx.app.db, ctx.server.id),
        can_open: isOwner(ctx),
      };
    },
    async open(ctx) {
      // The guard already refused admins and team members (forbidWhileActing, ownerOnly); this
      // holds it on the row too.
      if (!isOwner(ctx))
        throw forbidden("Only the server's owner can open its mailboxes in Roundcube");
      const app = roundcubeOf(ctx);
      const mailbox = ctx.loaded.mailbox_id;
      if (mailbox.status !== 'active')
        throw new HttpError(
          409,
          `The mailbox is ${mailbox.status === 'deleting' ? 'being removed' : 'not ready yet'}`,
        );
      if (app.status !== 'active') throw new HttpError(409, `${app.name} is not ready yet`);
      if (!(await mailEnabled(ctx.app.db, ctx.server.id)))
        throw new HttpError(409, 'Mail is not enabled on this server');
      if (!(await ctx.app.agents.isOnline(ctx.server.id)))
        throw new HttpError(409, 'The server is offline: its agent is not connected');
      const key = await ssoKeyOf(ctx.app, app);
      const set = await readOp(ctx, 'roundcube.sso.set', {
        user: app.sys_user,
        app: app.name,
        app_id: app.id,
        key,
      });
      if (!set.mail)
        throw new HttpError(
          409,
          'The server has no mail login for Roundcube yet: enable mail first',
        );
      const address = addressOf(mailbox);
      const url = await urlOf(ctx, app);
      const minted = mintSsoToken(key, app.id, address, ctx.app.services.clock());
      await recordActivity(ctx, `Opened the mailbox ${address} in Roundcube (${app.name})`);
      return { url, address, ...minted };
    },
  },
});
