import { accntactivity } from '../../resources/accntactivity';
import { authlogs } from '../../resources/authlogs';
import type { AuthOutcome } from '../../resources/authlogs';
import { defineHandlers } from '../http/handlers';

export const authlogHandlers = defineHandlers(authlogs, {
  async list(ctx) {
    const page = await ctx.app.services.logs.authAttempts(ctx.uid, ctx.query);
    return {
      ...page,
      data: page.data.map((row) => ({ ...row, outcome: row.outcome as AuthOutcome })),
    };
  },
  actions: {},
});

export const accountActivityHandlers = defineHandlers(accntactivity, {
  list: (ctx) => ctx.app.services.logs.activities(ctx.uid, ctx.query),
  actions: {},
});
