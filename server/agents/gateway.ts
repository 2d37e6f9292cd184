import type { FastifyInstance } from 'fastify';
import { Server, type Namespace, type Socket } from 'socket.io';
import { z } from 'zod';
import {
  AGENT_NAMESPACE,
  BROWSER_NAMESPACE,
  EVENTS,
  agentAuthSchema,
  reportSchema,
} from '../../resources/agent/protocol';
import { sha256 } from '../auth/hash';
import { emit } from '../events/emit';
import { settleServer } from '../managed/sweeper';
import { reconcileTasks } from '../tasks/taskOps';
import { pushTasks } from '../tasks/taskPush';
import type { Caller } from '../http/caller';
import { AgentHub } from './hub';
import { LiveStore } from './live';
import { agentRoom, liveRoom } from './rooms';

interface AgentData {
  serverId: number;
  uuid: string;
  /** The last machine facts written to the server row, to write again only on change. */
  facts?: string;
}

interface BrowserData {
  caller: Caller;
}

export interface Gateway {
  io: Server;
  hub: AgentHub;
  live: LiveStore;
}

/** The origins a browser socket may come from: the panel's own. */
function originAllowed(origin: string | undefined, app: FastifyInstance, host: string | undefined) {
  if (!origin) return true; // not a browser (a browser always sends Origin on a websocket)
  const allowed = new Set([new URL(app.config.publicUrl).origin]);
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  return allowed.has(origin);
}

function handleAgents(app: FastifyInstance, agents: Namespace, live: LiveStore) {
  agents.use(async (socket, next) => {
    const auth = agentAuthSchema.safeParse(socket.handshake.auth);
    if (!auth.success) return next(new Error('unauthorized'));
    const server = await app.db
      .selectFrom('servers')
      .select(['id', 'uuid'])
      .where('agent_key_hash', '=', sha256(auth.data.key))
      .executeTakeFirst();
    if (!server) return next(new Error('unauthorized'));
    socket.data = { serverId: server.id, uuid: server.uuid } satisfies AgentData;
    next();
  });

  agents.on('connection', (socket: Socket) => {
    const data = socket.data as AgentData;
    const server = { id: data.serverId, uuid: data.uuid };

    // Listeners first, before any await: an agent reports the moment it is connected.
    socket.on(EVENTS.report, (payload: unknown) => {
      const report = reportSchema.safeParse(payload);
      if (!report.success) {
        app.log.warn({ serverId: server.id }, 'agent sent a malformed report');
        return;
      }
      // In arrival order, before any await: reports must not overtake each other.
      live.report(server, report.data);
      const facts = JSON.stringify([
        report.data.hostname,
        report.data.os,
        report.data.kernel_version,
        report.data.agent_version,
      ]);
      if (facts !== data.facts) {
        data.facts = facts;
        app.services.servers.saveFacts(server.id, report.data).catch((err: unknown) => {
          app.log.error({ err, serverId: server.id }, 'saving server facts failed');
        });
      }
    });

    // The connection's bookkeeping: joined, the replaced connection gone, the row `connected`.
    // Join before replacing: the replaced connection, leaving, then sees this one and does not
    // mark the server offline.
    const joined = (async () => {
      await socket.join(agentRoom(server.id));
      for (const other of await agents.in(agentRoom(server.id)).fetchSockets()) {
        if (other.id !== socket.id) other.disconnect(true);
      }
      return app.services.servers.markConnected(server.id);
    })();

    socket.on('disconnect', async () => {
      // After the connection's own write: a connection that ends while it is being set up must
      // not have its `connected` land after this `disconnected` (the row would say online
      // until the agent came back).
      await joined.catch(() => undefined);
      if ((await agents.in(agentRoom(server.id)).fetchSockets()).length > 0) return;
      await app.services.servers.markDisconnected(server.id).catch((err: unknown) => {
        app.log.error({ err, serverId: server.id }, 'marking the server offline failed');
      });
      live.disconnected(server);
    });

    void (async () => {
      const { first } = await joined;
      // The install's last step, as the install page shows it: 10 is done.
      if (first) await app.services.serverLog.addEvent(server.id, 'The agent is connected', 10);
      // What waited for the server goes now (keys of users who lost it while it was offline).
      await emit(app, 'server.agent-connected', { serverId: server.id });
      // Rows written while it was offline, or left pending by a restart, are applied now.
      await settleServer(app, server.id);
      // Long work it was doing: goes on, or is failed when the agent no longer runs it.
      await reconcileTasks(app, server.id);
    })().catch((err: unknown) =>
      app.log.error({ err, serverId: server.id }, 'agent connection setup failed'),
    );
  });
}

const subscription = z.object({ uuid: z.uuid() });
type Ack = (answer: unknown) => void;

function handleBrowsers(app: FastifyInstance, browsers: Namespace, live: LiveStore) {
  browsers.use(async (socket, next) => {
    if (!originAllowed(socket.handshake.headers.origin, app, socket.handshake.headers.host)) {
      return next(new Error('origin not allowed'));
    }
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string') return next(new Error('unauthorized'));
    try {
      socket.data = { caller: await app.services.callers.fromToken(token) } satisfies BrowserData;
      next();
    } catch (error) {
      next(new Error(error instanceof Error ? error.message : 'unauthorized'));
    }
  });

  browsers.on('connection', (socket: Socket) => {
    const { caller } = socket.data as BrowserData;
    socket.on(EVENTS.subscribe, async (payload: unknown, ack?: Ack) => {
      const parsed = subscription.safeParse(payload);
      const server = parsed.success
        ? await app.services.servers.visibleByUuid(parsed.data.uuid, caller)
        : undefined;
      // A server the caller may not see answers like one that does not exist.
      if (!parsed.success || !server) return ack?.({ ok: false, error: 'Not found' });
      await socket.join(liveRoom(server.uuid));
      ack?.({ ok: true, connected: Boolean(server.connected), live: live.get(server.id) ?? null });
    });
    socket.on(EVENTS.unsubscribe, (payload: unknown) => {
      const parsed = subscription.safeParse(payload);
      if (parsed.success) void socket.leave(liveRoom(parsed.data.uuid));
    });
  });
}

/** socket.io on the panel's HTTP server: `/agent` for agents, `/live` for browsers. */
export function createGateway(
  app: FastifyInstance,
  options: { maxOpTimeoutMs?: number } = {},
): Gateway {
  const io = new Server(app.server, {
    serveClient: false,
    // Large enough for a report; small enough that a misbehaving client cannot hog memory.
    maxHttpBufferSize: 1e6,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });
  const agents = io.of(AGENT_NAMESPACE);
  const browsers = io.of(BROWSER_NAMESPACE);
  const live = new LiveStore(app.db, browsers, app.log.child({ module: 'live' }));
  handleAgents(app, agents, live);
  handleBrowsers(app, browsers, live);
  live.followSessions(app.services.sessions);
  pushTasks(app.services.tasks, browsers, app.log.child({ module: 'taskPush' }));
  return { io, hub: new AgentHub(agents, options.maxOpTimeoutMs), live };
}
