import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { services } from './resource';

/** The server's services, live from the agent: the panel keeps no row of them. */
const serviceHandlers = defineHandlers(services, {
  actions: {
    status: async (ctx) => ({ data: await readOp(ctx, 'services.list', {}) }),
    control: (ctx) =>
      runOp(ctx, `${ctx.query.action} ${ctx.body.service}`, 'services.control', {
        service: ctx.body.service,
        action: ctx.query.action,
      }),
  },
});

export const server = defineServerFeature({ handlers: [serviceHandlers] });
