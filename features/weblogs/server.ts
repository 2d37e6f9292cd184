import { readOp } from '../../server/agents/runOp';
import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { weblogs } from './resource';

type Query = { scroll_count: number; type: 'access' | 'error' };

/** The app came loaded through the server (`?wsid=`, resources under `app`). */
const page = (server: 'nginx' | 'apache') => (ctx: HandlerContext) => {
  const { scroll_count, type } = ctx.query as Query;
  return readOp(ctx, 'weblog.page', {
    app: ctx.webapp!.name,
    server,
    type,
    page: scroll_count,
  });
};

export const server = defineServerFeature({
  handlers: [
    { resource: weblogs, handlers: { actions: { nginx: page('nginx'), apache: page('apache') } } },
  ],
});
