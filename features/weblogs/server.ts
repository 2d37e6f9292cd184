import { readOp } from '../../server/agents/runOp';
import type { HandlerContext } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { badRequest } from '../../server/http/errors';
import { weblogs } from './resource';

type Query = { scroll_count: number; type: 'access' | 'error' };

/** The app came loaded through the server (`?wsid=`, resources under `app`). */
const page = (server: 'nginx' | 'apache') => (ctx: HandlerContext) => {
  const { scroll_count, type } = ctx.query as Query;
  const app = ctx.webapp!;
  // Apache serves only PHP apps of the hybrid stack: elsewhere there is no Apache log to read.
  if (server === 'apache' && (app.stack_type !== 'apache/nginx' || app.php_version === null))
    throw badRequest(`${app.name} is served by nginx alone: it has no Apache log`);
  return readOp(ctx, 'weblog.page', {
    app: app.name,
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
