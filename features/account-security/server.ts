import { defineServerFeature } from '../../server/feature';
import { afterPasswordChange, securityChanges, securityHandlers } from './serverSecurity';
import { sessionHandlers } from './serverSessions';

/**
 * The panel side of the account's security: its own routes (API keys, authenticator enrolment,
 * sessions), and the password and two-factor fields of the platform's `PUT users/{uid}`, which
 * the platform hands over through `user.updating` / `user.updated` (server/events/panel.ts).
 */
export const server = defineServerFeature({
  handlers: [securityHandlers, sessionHandlers],
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
