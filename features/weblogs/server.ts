import { readOp } from '../../server/agents/runOp';
import { type ActionContext, defineHandlers, webappOf } from '../../server/http/handlers';
import { defineServerFeature } from '../../server/feature';
import { badRequest } from '../../server/http/errors';
import { weblogs } from './resource';

// Both logs declare the same query.
type Call = ActionContext<typeof weblogs, 'nginx'>;

/** The app came loaded through the server (`?wsid=`, resources under `app`). */
const page = (server: 'nginx' | 'apache') => (ctx: Call) => {
  const { scroll_count, type } = ctx.query;
  const app = webappOf(ctx);
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
    defineHandlers(weblogs, { actions: { nginx: page('nginx'), apache: page('apache') } }),
  ],
});
