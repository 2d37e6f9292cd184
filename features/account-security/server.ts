import type { Db } from '../../server/db/database';
import { defineServerFeature } from '../../server/feature';
import { afterPasswordChange, securityChanges, securityHandlers } from './serverSecurity';
import { sessionHandlers } from './serverSessions';

/** `{uuid}`: a session of the `{uid}` user, not yet signed out (the handler checks expiry). */
const sessionOfAccount = (db: Db, uid: number, id: number | string) =>
  db
    .selectFrom('sessions')
    .select(['id', 'user_id'])
    .where('id', '=', String(id))
    .where('user_id', '=', uid)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

/** `{id}`: an API key of the `{uid}` user. */
const apiKeyOfAccount = (db: Db, uid: number, id: number | string) =>
  db
    .selectFrom('api_keys')
    .select(['id', 'user_id'])
    .where('id', '=', Number(id))
    .where('user_id', '=', uid)
    .executeTakeFirst();

declare module '../../server/http/children' {
  interface FeatureChildRows {
    sessions: NonNullable<Awaited<ReturnType<typeof sessionOfAccount>>>;
    'user-security': NonNullable<Awaited<ReturnType<typeof apiKeyOfAccount>>>;
  }
}

/**
 * The panel side of the account's security: its own routes (API keys, authenticator enrolment,
 * sessions), and the password and two-factor fields of the platform's `PUT users/{uid}`, which
 * the platform hands over through `user.updating` / `user.updated` (server/events/panel.ts).
 */
export const server = defineServerFeature({
  handlers: [securityHandlers, sessionHandlers],
  accountChildren: { sessions: sessionOfAccount, 'user-security': apiKeyOfAccount },
  on: {
    async 'user.updating'(change) {
      const { patch, messages } = await securityChanges(change.ctx, change.user);
      Object.assign(change.patch, patch);
      change.messages.push(...messages);
    },
    async 'user.updated'({ ctx, user }) {
      if (ctx.body.password !== undefined) await afterPasswordChange(ctx, user);
    },
  },
});
