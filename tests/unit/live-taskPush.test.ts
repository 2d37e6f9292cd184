import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce, listedTask, parseTaskPush } from '../../src/live/taskPushLogic';
import { CLONE_POLL_MS, CLONE_SAFETY_POLL_MS, clonePollMs } from '../../src/shell/messages';

/** A stand-in for socket.io-client's Socket: the test fires the panel's events. */
class FakeSocket extends EventEmitter {
  connected = false;
  active = true;
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
vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = new FakeSocket();
    sockets.push(socket);
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

const push = { id: 7, kind: 'install', status: 'running', event: 'Database', code: 4 };

describe('task pushes (issue 11)', () => {
  it('takes what the panel sends and nothing else', () => {
    expect(parseTaskPush(push)).toEqual(push);
    const end = { ...push, status: 'completed', event: null, code: null };
    expect(parseTaskPush(end)).toEqual(end);
    expect(parseTaskPush({ ...push, status: 'done' })).toBeNull();
    expect(parseTaskPush({ ...push, id: '7' })).toBeNull();
    expect(parseTaskPush(null)).toBeNull();
  });

  it('refetches the messages for clones and installs only', () => {
    expect(listedTask(parseTaskPush(push)!)).toBe(true);
    expect(listedTask(parseTaskPush({ ...push, kind: 'clone' })!)).toBe(true);
    expect(listedTask(parseTaskPush({ ...push, kind: 'cleanup' })!)).toBe(false);
  });

  it('polls every second without pushes, every 15 s with them', () => {
    expect(clonePollMs(false)).toBe(CLONE_POLL_MS);
    expect(CLONE_POLL_MS).toBe(1000);
    expect(clonePollMs(true)).toBe(CLONE_SAFETY_POLL_MS);
    expect(CLONE_SAFETY_POLL_MS).toBe(15_000);
  });

  describe('coalesce', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('runs once after a burst, and again for a later burst', () => {
      const run = vi.fn();
      const refresh = coalesce(run, 50);
      refresh();
      refresh();
      refresh();
      expect(run).not.toHaveBeenCalled();
      vi.advanceTimersByTime(50);
      expect(run).toHaveBeenCalledTimes(1);
      refresh();
      vi.advanceTimersByTime(50);
      expect(run).toHaveBeenCalledTimes(2);
    });
  });
});

describe('listenLive on the shared socket', () => {
  beforeEach(() => {
    vi.resetModules();
    sockets.length = 0;
    token = 'token-1';
    sessionListeners.clear();
  });

  it('opens the socket, hears the event until stopped, and again on a new socket', async () => {
    const live = await import('../../src/live/socket');
    const heard = vi.fn();
    const stop = live.listenLive('task', heard);
    expect(sockets).toHaveLength(1);
    const first = sockets[0]!;
    first.connect();
    first.fire('task', push);
    expect(heard).toHaveBeenCalledWith(push);

    // A new sign-in opens a new socket: the listener follows it.
    token = 'token-2';
    sessionListeners.forEach((listener) => listener());
    expect(sockets).toHaveLength(2);
    sockets[1]!.connect();
    sockets[1]!.fire('task', { ...push, code: 5 });
    expect(heard).toHaveBeenLastCalledWith({ ...push, code: 5 });

    stop();
    sockets[1]!.fire('task', { ...push, code: 6 });
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('keeps two listeners of one handler apart', async () => {
    const live = await import('../../src/live/socket');
    const heard = vi.fn();
    const stopOne = live.listenLive('task', heard);
    live.listenLive('task', heard);
    sockets[0]!.connect();
    sockets[0]!.fire('task', push);
    expect(heard).toHaveBeenCalledTimes(2);
    stopOne();
    sockets[0]!.fire('task', push);
    expect(heard).toHaveBeenCalledTimes(3);
  });
});
