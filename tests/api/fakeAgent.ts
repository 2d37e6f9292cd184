import type { Socket } from 'socket.io-client';
import { dispatch, opLocks } from '../../agent/ops/index';
import type { OpContext } from '../../agent/ops/types';
import { KeyedLocks } from '../../agent/lib/locks';
import { serveOps } from '../../agent/opServer';
import { EVENTS } from '../../resources/agent/protocol';
import type { TestUser } from './helpers';
import { type LiveApp, connected } from './liveApp';

/** A fake op: what the real one would change on a server, kept in the test's memory. */
export type FakeOp = (args: never, ctx: OpContext) => Promise<unknown> | unknown;

/**
 * A fake agent for API tests: a real socket.io connection with the server's own key, and the
 * agent's real dispatch (argument schemas, locks, structured errors), over op implementations
 * the test gives (an in-memory crontab, say). Handler logic — pending, failed, conflicts, the
 * sweeper after a reconnect — runs in seconds without root; system tests keep the real effects.
 */
export interface FakeAgent {
  server: { id: number; uuid: string; name: string };
  /** Every op asked, in order. */
  calls: { name: string; args: unknown }[];
  /** Replaces (or adds) op implementations. */
  ops: Record<string, FakeOp>;
  /** Waits this long before each answer (for ops under way while something else happens). */
  delayMs: number;
  /** Drops the connection and waits until the panel marks the server offline. */
  disconnect(): Promise<void>;
  /** Connects again (the panel then settles what waited for the server). */
  reconnect(): Promise<void>;
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function startFakeAgent(
  live: LiveApp,
  owner: TestUser,
  ops: Record<string, FakeOp>,
  name = 'fake-1',
): Promise<FakeAgent> {
  const server = await live.newServer(owner, name);
  const key = await live.agentKey(server.installKey);
  const locks = new KeyedLocks();
  let socket: Socket;
  const fake: FakeAgent = {
    server,
    calls: [],
    ops,
    delayMs: 0,
    disconnect: async () => {
      socket.disconnect();
      await until(async () => !(await live.t.app.agents.isOnline(server.id)));
    },
    // The same socket connects again, as the real agent's does: what it buffered while
    // offline (late replies, steps) goes out on the new connection.
    reconnect: async () => {
      socket.connect();
      await connected(socket);
      await until(() => live.t.app.agents.isOnline(server.id));
    },
  };
  async function open() {
    socket = live.agentSocket(key);
    // The agent's own op server: a reply whose connection dropped comes on the next one.
    socket.on(
      EVENTS.op,
      serveOps(
        () => socket,
        async (request, progress) => {
          const { name, args } = request as { name: string; args: unknown };
          fake.calls.push({ name, args });
          if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs));
          return dispatch(request, fake.ops as never, { table: opLocks, held: locks }, progress);
        },
      ),
    );
    await connected(socket);
    await until(() => live.t.app.agents.isOnline(server.id));
  }
  await open();
  return fake;
}
