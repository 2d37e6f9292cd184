/**
 * What happens when a lazily loaded part of the page does not arrive (spec section 2): give up
 * after PAGE_LOAD_TIMEOUT_MS, then reload the page once. A failure right after such a reload
 * is shown instead of reloading again, so a broken deployment cannot loop forever.
 */
export const PAGE_LOAD_TIMEOUT_MS = 120_000;
/** A reload older than this was for an earlier failure; a new one may reload again. */
export const RELOAD_MEMORY_MS = 60_000;
export const RELOAD_KEY = 'stackdeck.chunkReloadAt';

export class ChunkTimeoutError extends Error {
  constructor(ms: number) {
    super(`A part of the page did not load within ${ms / 1000} s`);
    this.name = 'ChunkTimeoutError';
  }
}

/** Resolves or rejects like `promise`, or rejects with ChunkTimeoutError after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number = PAGE_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** `lastReloadAt`: the stored time of this tab's last reload for a failed part, if any. */
export function decideOnChunkFailure(lastReloadAt: string | null, now: number): 'reload' | 'fail' {
  const at = lastReloadAt === null ? NaN : Number(lastReloadAt);
  if (Number.isFinite(at) && now - at >= 0 && now - at < RELOAD_MEMORY_MS) return 'fail';
  return 'reload';
}
