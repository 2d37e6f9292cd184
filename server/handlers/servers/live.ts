import { serverActivity } from '../../../resources/server-activity';
import { defineHandlers } from '../../http/handlers';

export const serverActivityHandlers = defineHandlers(serverActivity, {
  list: (ctx) => ctx.app.services.serverLog.list(ctx.server.id, ctx.query),
  actions: {},
});
