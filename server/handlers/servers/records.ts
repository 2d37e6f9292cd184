import { isPendingInstall, type servers } from '../../../resources/servers';
import { emit } from '../../events/emit';
import type { ResourceHandlers } from '../../http/handlers';
import { toServerRecord } from '../../repositories/servers';

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
    await emit(ctx.app, 'server.removing', { ctx, server });
    if (await ctx.app.agents.isOnline(server.id)) {
      await ctx.app.agents.call(server.id, 'agent.uninstall', {}).catch((err: unknown) => {
        ctx.req.log.warn({ err, serverId: server.id }, 'agent did not confirm its removal');
      });
    }
    ctx.app.live.forget(server.id);
    await ctx.app.services.servers.delete(server.id);
    return { id: server.id, name: server.name };
  },
};
