import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { KeyedLocks } from '../../agent/lib/locks';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { dispatch, opLocks } from '../../agent/ops/index';
import type { OpTable } from '../../agent/ops/types';

const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl a';

/** Counts how many runs overlap at most. */
function overlapMeter() {
  let now = 0;
  let max = 0;
  return {
    async run(ms: number) {
      now += 1;
      max = Math.max(max, now);
      await sleep(ms);
      now -= 1;
    },
    get max() {
      return max;
    },
  };
}

describe('keyed locks', () => {
  it('runs holders of one key one at a time, in arrival order', async () => {
    const locks = new KeyedLocks();
    const meter = overlapMeter();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        locks.with(['authorized_keys:alice'], async () => {
          await meter.run(5);
          order.push(i);
        }),
      ),
    );
    expect(meter.max).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(locks.busy).toEqual([]);
  });

  it('runs different keys side by side', async () => {
    const locks = new KeyedLocks();
    const meter = overlapMeter();
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((user) =>
        locks.with([`authorized_keys:${user}`], () => meter.run(30)),
      ),
    );
    expect(meter.max).toBe(4);
  });

  it('lets go of the key when the holder fails', async () => {
    const locks = new KeyedLocks();
    await expect(
      locks.with(['users'], () => Promise.reject(new Error('useradd failed'))),
    ).rejects.toThrow('useradd failed');
    expect(await locks.with(['users'], async () => 'next')).toBe('next');
    expect(locks.busy).toEqual([]);
  });

  it('takes several keys in one order, so crossed requests never wait on each other', async () => {
    const locks = new KeyedLocks();
    const meter = overlapMeter();
    const done = await Promise.race([
      Promise.all([
        locks.with(['sshd_config', 'service:sshd'], () => meter.run(10)),
        locks.with(['service:sshd', 'sshd_config'], () => meter.run(10)),
        locks.with(['service:sshd'], () => meter.run(10)),
      ]).then(() => 'done'),
      sleep(2000).then(() => 'stuck'),
    ]);
    expect(done).toBe('done');
    expect(meter.max).toBe(1);
  });
});

describe('dispatch', () => {
  /**
   * authorized_keys as a read-modify-write with a pause between the read and the write, as the
   * real op has (runuser cat, then tee and mv): without the lock, parallel adds lose keys.
   */
  function keyFile() {
    const files = new Map<string, string[]>();
    const table: Partial<OpTable> = {
      async 'pubkeys.add'({ user_name, key }) {
        const before = files.get(user_name) ?? [];
        await sleep(2 + Math.random() * 5);
        files.set(user_name, [...before, key]);
        return { fingerprint: key, type: 'ssh-ed25519', comment: '' };
      },
    };
    return { files, table };
  }
  const add = (user_name: string, i: number) => ({
    name: 'pubkeys.add',
    args: { user_name, key: `${KEY_A}${i}` },
  });

  it('holds the declared lock: 20 parallel key adds to one user all land', async () => {
    const { files, table } = keyFile();
    const locks = { table: opLocks, held: new KeyedLocks() };
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => dispatch(add('alice', i), table, locks)),
    );
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(files.get('alice')).toHaveLength(20);
  });

  it('would lose adds without the lock (the race the lock closes)', async () => {
    const { files, table } = keyFile();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        dispatch(add('alice', i), table, { table: {}, held: new KeyedLocks() }),
      ),
    );
    expect(files.get('alice')!.length).toBeLessThan(20);
  });

  it('declares the lock of every op that changes a shared file', () => {
    const keys = (name: keyof typeof opLocks, args: unknown) =>
      (opLocks[name] as (a: unknown) => string[])(args);
    expect(keys('pubkeys.add', { user_name: 'bob', key: KEY_A })).toEqual(['authorized_keys:bob']);
    expect(keys('pubkeys.remove', { user_name: 'bob', fingerprint: 'x' })).toEqual([
      'authorized_keys:bob',
    ]);
    expect(keys('sysusers.create', {})).toEqual(['users']);
    expect(keys('sysusers.delete', {})).toEqual(['users']);
    expect(keys('sshconfig.set', {})).toContain('sshd_config');
    expect(keys('services.control', { service: 'sshd', action: 'reload' })).toEqual([
      'service:sshd',
    ]);
    expect(keys('sshconfig.set', {})).toContain('service:sshd');
  });

  it('answers failures as structured errors', async () => {
    const table: Partial<OpTable> = {
      'system.hostname': () => Promise.reject(opFieldError('hostname', 'That name is taken')),
      'system.uptime': () => Promise.reject(new OpError('conflict', 'Busy')),
      'system.info': () => Promise.reject(new Error('hostname: you must be root')),
    };
    const locks = { table: opLocks, held: new KeyedLocks() };
    expect(
      await dispatch({ name: 'system.hostname', args: { hostname: 'web-1' } }, table, locks),
    ).toEqual({
      ok: false,
      error: { code: 'invalid', message: 'That name is taken', field: 'hostname' },
    });
    expect(await dispatch({ name: 'system.uptime', args: {} }, table, locks)).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'Busy' },
    });
    expect(await dispatch({ name: 'system.info', args: {} }, table, locks)).toEqual({
      ok: false,
      error: { code: 'failed', message: 'hostname: you must be root' },
    });
    expect(await dispatch({ name: 'system.reboot', args: {} }, table, locks)).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    });
    expect(await dispatch({ name: 'no.such', args: {} }, table, locks)).toMatchObject({
      ok: false,
      error: { code: 'unsupported', message: 'Unknown operation' },
    });
    expect(
      await dispatch({ name: 'system.hostname', args: { hostname: '-bad' } }, table, locks),
    ).toMatchObject({ ok: false, error: { code: 'invalid', field: 'hostname' } });
  });

  it('gives the op its id and sends its progress with it; without an id, progress is dropped', async () => {
    const table: Partial<OpTable> = {
      async 'system.cleanup'(_args, ctx) {
        ctx?.progress('Cleaning the package cache', 3);
        ctx?.progress('Vacuuming the journal', 7);
        return { packages: 1, logs: 2, journal: 3 };
      },
    };
    const locks = { table: opLocks, held: new KeyedLocks() };
    const sent: unknown[] = [];
    const id = '6f1c2f0e-8a53-4c6b-9a57-3c1d2e4f5a6b';
    const reply = await dispatch({ id, name: 'system.cleanup', args: {} }, table, locks, (p) =>
      sent.push(p),
    );
    expect(reply).toEqual({ ok: true, data: { packages: 1, logs: 2, journal: 3 } });
    expect(sent).toEqual([
      { opId: id, event: 'Cleaning the package cache', code: 3 },
      { opId: id, event: 'Vacuuming the journal', code: 7 },
    ]);
    sent.length = 0;
    await dispatch({ name: 'system.cleanup', args: {} }, table, locks, (p) => sent.push(p));
    expect(sent).toEqual([]);
  });
});
