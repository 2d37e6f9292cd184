/**
 * Keyed async locks: ops that touch the same file or service take the same key and run one
 * after the other, in arrival order; ops on different keys run side by side. The agent serves
 * one server, so a key here is a lock per (server, area or file).
 */
export class KeyedLocks {
  /** The tail of each key's queue: resolves when the last holder lets go. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys currently held or waited for (for tests and diagnostics). */
  get busy(): string[] {
    return [...this.tails.keys()];
  }

  /**
   * Runs fn holding every key. Keys are taken in sorted order (duplicates dropped), so two ops
   * that need the same pair can never wait on each other.
   */
  async with<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    const release: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) release.push(await this.acquire(key));
      return await fn();
    } finally {
      for (const free of release.reverse()) free();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let free!: () => void;
    const mine = new Promise<void>((resolve) => (free = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    return () => {
      free();
      // The last in the queue cleans up; a later arrival has replaced the tail already.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
