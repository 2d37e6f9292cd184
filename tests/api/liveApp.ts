import { io, type Socket } from 'socket.io-client';
import {
  AGENT_NAMESPACE,
  BROWSER_NAMESPACE,
  EVENTS,
  type Report,
} from '../../resources/agent/protocol';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { PLAN_IDS } from '../../features/plans/api';

type BuildOptions = Parameters<typeof buildTestApp>[1];

/**
 * A test app listening on a loopback port, with real socket.io clients for its two namespaces:
 * agents authenticate with their server's own key, browsers with a token and the panel's Origin.
 */
export interface LiveApp {
  t: TestApp;
  /** `http://127.0.0.1:{port}`, also the app's public URL (install commands, Origin). */
  base: string;
  /** A socket with any handshake (a malformed one, say). */
  socket(namespace: string, auth: Record<string, string>, origin?: string): Socket;
  agentSocket(key: string): Socket;
  browserSocket(token: string | undefined, origin?: string): Socket;
  /** A server of `owner`'s with the install key of its install command. */
  newServer(
    owner: TestUser,
    name?: string,
  ): Promise<{ id: number; uuid: string; name: string; installKey: string }>;
  /** The agent key an install fetches with its install key. */
  agentKey(installKey: string): Promise<string>;
  /** Disconnects every socket made so far (afterEach). */
  disconnectAll(): void;
  close(): Promise<void>;
}

export async function startLiveApp(
  options: BuildOptions = {},
  /** Configuration of the panel (`outboundAllow`, say). */
  overrides: Parameters<typeof buildTestApp>[0] = {},
): Promise<LiveApp> {
  const t = await buildTestApp(overrides, options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  t.app.config.publicUrl = base;
  const sockets: Socket[] = [];
  const open = (namespace: string, auth: Record<string, string>, origin?: string) => {
    const socket = io(`${base}${namespace}`, {
      auth,
      transports: ['websocket'],
      reconnection: false,
      ...(origin === undefined ? {} : { extraHeaders: { origin } }),
    });
    sockets.push(socket);
    return socket;
  };
  return {
    t,
    base,
    socket: open,
    agentSocket: (key) => open(AGENT_NAMESPACE, { key, agent_version: 'test' }),
    browserSocket: (token, origin = base) =>
      open(BROWSER_NAMESPACE, token ? { token } : {}, origin),
    async newServer(owner, name = 'web-1') {
      const create = () =>
        t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
          token: owner.token,
          body: { name },
        });
      let res = await create();
      // A server for a test about something else: an owner whose plan (a new account's Trial,
      // one server) holds no more is moved to Pro (no limit). The limits themselves are
      // tested in plan-limits.test.ts.
      if (res.statusCode === 403 && (res.json() as { code?: string }).code === 'plan_limit') {
        await t.app.db
          .updateTable('users')
          .set({ plan_id: PLAN_IDS.pro })
          .where('id', '=', owner.id)
          .execute();
        res = await create();
      }
      if (res.statusCode !== 200) throw new Error(`server not created: ${res.body}`);
      const server = res.json() as { id: number; uuid: string; name: string };
      const script = await t.call(
        'POST',
        `/api/v1/servers/users/${owner.id}?action=script&sid=${server.id}`,
        { token: owner.token },
      );
      const command = (script.json() as { command: string }).command;
      return { ...server, installKey: /\/install\/([\w-]+)/.exec(command)![1]! };
    },
    async agentKey(installKey) {
      const res = await fetch(`${base}/install/${installKey}/credentials`, { method: 'POST' });
      if (res.status !== 200) throw new Error(`no credentials: HTTP ${res.status}`);
      return ((await res.json()) as { key: string }).key;
    },
    disconnectAll() {
      for (const socket of sockets.splice(0)) socket.disconnect();
    },
    close: () => t.close(),
  };
}

export const connected = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

/** The refusal's message of a socket that must not connect. */
export const refused = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', (error) => resolve(error.message));
  });

/** A report as an agent sends it every 5 s. */
export const sampleReport = (over: Partial<Report> = {}): Report => ({
  agent_version: '0.1.0',
  kernel_version: '6.1.0-test',
  os: 'Debian GNU/Linux 12 (bookworm)',
  hostname: 'web-1.example.com',
  timezone: 'Europe/Berlin',
  uptime: 1234,
  load: [0.5, 0.4, 0.3],
  cpu: { cores: 2, usage: 12.5 },
  memory: { total: 4e9, used: 1e9, swap_total: 0, swap_used: 0 },
  disk: { total: 50e9, used: 10e9 },
  network: { rx_bytes: 1000, tx_bytes: 2000, rx_rate: 10, tx_rate: 20 },
  at: Date.now(),
  ...over,
});

/** Resolves with the reason when the server closes the socket. */
export const closedBy = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

/**
 * True when the socket is still open after a round trip through the server. Call it once the
 * action that might close it has answered: the panel closes a revoked session's sockets before
 * the answer, and anything it sent this socket before (its close included) arrives ahead of the
 * round trip's answer, which never comes over a closed socket.
 */
export async function stillOpen(socket: Socket): Promise<boolean> {
  if (!socket.connected) return false;
  // A subscribe call answers only over a live connection.
  const answer = await socket
    .timeout(2000)
    .emitWithAck(EVENTS.subscribe, { uuid: '00000000-0000-4000-8000-000000000000' })
    .catch(() => null);
  return answer !== null && socket.connected;
}

/** A browser socket of the token's session, once connected. */
export async function openSocket(live: LiveApp, token: string): Promise<Socket> {
  const socket = live.browserSocket(token);
  await connected(socket);
  return socket;
}
