import { readOp, runOp } from '../../server/agents/runOp';
import { defineHandlers } from '../../server/http/handlers';
import { sshconfig } from './sshconfig';

/** sshd's settings, read from the server and changed there: the panel keeps no row of them. */
export const sshconfigHandlers = defineHandlers(sshconfig, {
  actions: {
    read: (ctx) => readOp(ctx, 'sshconfig.get', {}),
    change: (ctx) => {
      const changes = Object.entries(ctx.body)
        .map(([key, value]) => `${key} ${String(value)}`)
        .join(', ');
      return runOp(ctx, `Change SSH settings: ${changes || 'nothing'}`, 'sshconfig.set', ctx.body);
    },
  },
});
