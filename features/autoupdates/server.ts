import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { thirdpartyupd } from './resource';

const words = (on: boolean | undefined) => (on ? 'on' : 'off');

/**
 * Live like the SSH settings: apt's view on the server is the truth (its files may change by
 * hand or by a package), so nothing is stored in the panel, and an offline server answers 409.
 */
export const server = defineServerFeature({
  handlers: [
    defineHandlers(thirdpartyupd, {
      actions: {
        read: (ctx) => readOp(ctx, 'autoupdates.get', {}),
        change: (ctx) => {
          const body = ctx.body ?? {};
          const parts = [
            ...(body.security_update === undefined
              ? []
              : [`security updates ${words(body.security_update)}`]),
            ...(body.software_update === undefined
              ? []
              : [`software updates ${words(body.software_update)}`]),
          ];
          return runOp(
            ctx,
            `Automatic updates: ${parts.join(', ') || 'no change'}`,
            'autoupdates.set',
            body,
          );
        },
      },
    }),
  ],
});
