import { defineHandlers } from '../../server/http/handlers';
import { backupRecoveryKey } from './recoveryResource';
import { makeRecoveryKey, recoveryStatus } from './serverRecovery';

/** The recovery key's two calls: its state, and a new key shown once. */
export const recoveryHandlers = defineHandlers(backupRecoveryKey, {
  actions: {
    status: (ctx) => recoveryStatus(ctx.app, ctx.uid),
    make: (ctx) => makeRecoveryKey(ctx.app, ctx.uid),
  },
});
