import { serverActivity } from '../../../resources/server-activity';
import { services } from '../../../resources/services';
import { readOp, runOp } from '../../agents/runOp';
import { defineHandlers } from '../../http/handlers';

export const serverActivityHandlers = defineHandlers(serverActivity, {
  list: (ctx) => ctx.app.services.serverLog.list(ctx.server.id, ctx.query),
  actions: {},
});

export const serviceHandlers = defineHandlers(services, {
  actions: {
    status: async (ctx) => ({ data: await readOp(ctx, 'services.list', {}) }),
    control: (ctx) =>
      runOp(ctx, `${ctx.query.action} ${ctx.body.service}`, 'services.control', {
        service: ctx.body.service,
        action: ctx.query.action,
      }),
  },
});
