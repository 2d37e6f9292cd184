import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChunkTimeoutError,
  PAGE_LOAD_TIMEOUT_MS,
  RELOAD_MEMORY_MS,
  decideOnChunkFailure,
  withTimeout,
} from '../../src/routes/chunkReload';

afterEach(() => vi.useRealTimers());

describe('lazy page load time-out (spec sections 2 and 9)', () => {
  it('is 120000 ms', () => {
    expect(PAGE_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('rejects a load still pending after the time-out', async () => {
    vi.useFakeTimers();
    const load = withTimeout(new Promise(() => undefined));
    const settled = expect(load).rejects.toBeInstanceOf(ChunkTimeoutError);
    await vi.advanceTimersByTimeAsync(PAGE_LOAD_TIMEOUT_MS - 1);
    let done = false;
    void load.catch(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
  });

  it('passes a load that arrives in time, or its own failure', async () => {
    await expect(withTimeout(Promise.resolve('page'), 50)).resolves.toBe('page');
    const failure = new Error('chunk 404');
    await expect(withTimeout(Promise.reject(failure), 50)).rejects.toBe(failure);
  });
});

describe('reload on a failed page part', () => {
  const now = 1_000_000;

  it('reloads when this tab has not just reloaded for one', () => {
    expect(decideOnChunkFailure(null, now)).toBe('reload');
    expect(decideOnChunkFailure('garbage', now)).toBe('reload');
  });

  it('does not reload again right after such a reload (no loop)', () => {
    expect(decideOnChunkFailure(String(now - 500), now)).toBe('fail');
  });

  it('reloads again for a failure long after the last reload', () => {
    expect(decideOnChunkFailure(String(now - RELOAD_MEMORY_MS), now)).toBe('reload');
    // A clock that went backwards is no proof of a recent reload.
    expect(decideOnChunkFailure(String(now + 5000), now)).toBe('reload');
  });
});
