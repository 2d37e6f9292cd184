import { isPendingInstall, type servers } from '../../../resources/servers';
import type { ResourceHandlers } from '../../http/handlers';
import { toServerRecord } from '../../repositories/servers';
import { removeServer } from './removal';

type Handlers = ResourceHandlers<typeof servers>;

/** The server record and its list; live info from memory when the agent is online. */
export const recordHandlers: Pick<Handlers, 'list' | 'get' | 'update' | 'delete'> = {
  async list(ctx) {
    const page = await ctx.app.services.servers.listVisible(ctx.uid, ctx.query);
    return {
      total: page.total,
      data: page.data.map((row) => toServerRecord(row, ctx.app.live.get(row.id))),
    };
  },

  async get(ctx) {
    return toServerRecord(ctx.server, ctx.app.live.get(ctx.server.id));
  },

  async update(ctx) {
    const { name, ip4, provider, os_version, timezone } = ctx.body;
    const pending = isPendingInstall(toServerRecord(ctx.server));
    const row = await ctx.app.services.servers.update(ctx.server.id, {
      ...(name === undefined
        ? {}
        : pending
          ? { pending_name: name }
          : { name, pending_name: null }),
      ...(ip4 !== undefined ? { ip4 } : {}),
      ...(provider !== undefined ? { provider } : {}),
      ...(os_version !== undefined ? { os_version } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
    });
    // A member's PUT answers the server as they see it: shared.
    return toServerRecord({ ...row, is_shared: ctx.server.is_shared }, ctx.app.live.get(row.id));
  },

  /** Events and the install key go with the row; an online agent is asked to remove itself. */
  async delete(ctx) {
    const server = ctx.server;
    await removeServer(ctx.app, server, ctx.req.log);
    return { id: server.id, name: server.name };
  },
};
