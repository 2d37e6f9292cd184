import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for socket.io-client's Socket: records emits, lets the test fire events. */
class FakeSocket extends EventEmitter {
  connected = false;
  active = true;
  emitted: { event: string; payload: unknown; ack?: (answer: unknown) => void }[] = [];
  override emit(event: string, ...args: unknown[]): boolean {
    if (event === 'subscribe' || event === 'unsubscribe') {
      this.emitted.push({
        event,
        payload: args[0],
        ack: args[1] as ((answer: unknown) => void) | undefined,
      });
      return true;
    }
    return super.emit(event, ...args);
  }
  fire(event: string, ...args: unknown[]) {
    super.emit(event, ...args);
  }
  connect() {
    this.connected = true;
    this.fire('connect');
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
}

const sockets: FakeSocket[] = [];
const options: unknown[] = [];
vi.mock('socket.io-client', () => ({
  io: (_url: string, opts: unknown) => {
    const socket = new FakeSocket();
    sockets.push(socket);
    options.push(opts);
    return socket;
  },
}));

let token: string | null = 'token-1';
const sessionListeners = new Set<() => void>();
vi.mock('../../src/providers', () => ({
  sessions: {
    get: () => (token ? { token, userId: 1, isAdmin: false } : null),
    subscribe: (listener: () => void) => {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
  },
}));

const report = {
  agent_version: '0.1.0',
  kernel_version: '6.1',
  os: 'Debian GNU/Linux 12',
  hostname: 'box',
  timezone: 'UTC',
  uptime: 10,
  load: [0, 0, 0],
  cpu: { cores: 2, usage: 5 },
  memory: { total: 1, used: 1, swap_total: 0, swap_used: 0 },
  disk: { total: 1, used: 1 },
  network: { rx_bytes: 0, tx_bytes: 0, rx_rate: 0, tx_rate: 0 },
  at: 1,
};

describe('the shared /live socket', () => {
  beforeEach(() => {
    vi.resetModules();
    sockets.length = 0;
    options.length = 0;
    token = 'token-1';
    sessionListeners.clear();
  });

  it('subscribes once per server, follows reports, re-subscribes after a reconnect', async () => {
    const live = await import('../../src/live/socket');
    const a = vi.fn();
    const b = vi.fn();
    const stopA = live.followServer('uuid-1', a);
    const stopB = live.followServer('uuid-1', b);
    expect(sockets).toHaveLength(1);
    const socket = sockets[0]!;
    // The token is read at each handshake.
    const auth = (options[0] as { auth: (cb: (data: unknown) => void) => void }).auth;
    auth((data) => expect(data).toEqual({ token: 'token-1' }));

    socket.connect();
    expect(socket.emitted).toHaveLength(1);
    expect(socket.emitted[0]).toMatchObject({ event: 'subscribe', payload: { uuid: 'uuid-1' } });
    socket.emitted[0]!.ack!({ ok: true, connected: true, live: report });
    expect(live.serverLiveState('uuid-1')).toEqual({ connected: true, report, error: null });
    expect(a).toHaveBeenCalled();

    socket.fire('live', { ...report, uptime: 20, uuid: 'uuid-1', connected: false });
    expect(live.serverLiveState('uuid-1')).toMatchObject({
      connected: false,
      report: { uptime: 20 },
    });
    expect(live.serverLiveState('uuid-1').report).not.toHaveProperty('uuid');

    // A reconnect sends the subscription again.
    socket.connected = false;
    socket.fire('disconnect');
    socket.connect();
    expect(socket.emitted.filter((e) => e.event === 'subscribe')).toHaveLength(2);

    stopA();
    expect(socket.emitted.some((e) => e.event === 'unsubscribe')).toBe(false);
    stopB();
    expect(socket.emitted.at(-1)).toMatchObject({
      event: 'unsubscribe',
      payload: { uuid: 'uuid-1' },
    });
    expect(live.serverLiveState('uuid-1')).toEqual({ connected: null, report: null, error: null });
  });

  it('reports a refused subscription, and opens a new socket for a new token', async () => {
    const live = await import('../../src/live/socket');
    live.followServer('uuid-2', () => undefined);
    const first = sockets[0]!;
    first.connect();
    first.emitted[0]!.ack!({ ok: false, error: 'Not found' });
    expect(live.serverLiveState('uuid-2').error).toBe('Not found');

    token = 'token-2';
    sessionListeners.forEach((listener) => listener());
    expect(sockets).toHaveLength(2);
    const second = sockets[1]!;
    second.connect();
    expect(second.emitted[0]).toMatchObject({ event: 'subscribe', payload: { uuid: 'uuid-2' } });

    token = null;
    sessionListeners.forEach((listener) => listener());
    expect(second.connected).toBe(false);
  });
});
