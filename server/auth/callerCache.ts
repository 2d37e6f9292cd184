/**
 * Resolved callers kept in the panel process, so an authenticated request whose session, user
 * and keys did not change costs no database round trip.
 *
 * Entries are dropped at once, in this process, by every change that can alter the answer:
 * - a session revoked (`Sessions` tells its revoke listeners, the cache is one);
 * - anything written about a user (row, photo, API keys, deletion): the repositories in
 *   `server/repositories/users.ts` and `apiKeys.ts` call `callerChanges(db).user(id)` after the
 *   write (after the commit when it runs in a transaction). A test keeps every write to those
 *   tables inside those files (tests/unit/caller-cache-writes.test.ts).
 * Dropping a user drops the entries of their sessions, their API keys and the impersonation
 * sessions they hold as an admin.
 *
 * A short maximum age (CALLER_MAX_AGE_MS) bounds staleness where no in-process event can reach:
 * another panel process on the same database (there is no cross-panel bus today) or the CLI
 * writing while the panel runs.
 */

/** How long a resolved caller is reused at most, even when no change was heard. */
export const CALLER_MAX_AGE_MS = 30_000;
/** Resolved callers kept (least recently used go first); a few hundred bytes each. */
export const CALLERS_KEPT = 5_000;

type Listener = (userId: number) => void;

/** The invalidation bus of one database: writers announce, caches listen. */
export class CallerChanges {
  private readonly listeners = new Set<Listener>();

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Something about the user changed (row, photo, keys, sessions held as actor) or they are gone. */
  user(id: number): void {
    for (const listener of this.listeners) listener(id);
  }
}

const buses = new WeakMap<object, CallerChanges>();

/** The bus for a database handle (one per `Kysely` instance, shared by every repository on it). */
export function callerChanges(db: object): CallerChanges {
  let bus = buses.get(db);
  if (!bus) {
    bus = new CallerChanges();
    buses.set(db, bus);
  }
  return bus;
}

interface Entry<V> {
  value: V;
  /** The account and, for an impersonation session, the admin behind it. */
  userId: number;
  actorId: number | null;
  expiresAt: number;
}

/**
 * A bounded LRU of resolved values with a maximum age. Reads that race a change are not kept:
 * `generation()` is taken before the database read and `set` refuses the value when any
 * invalidation happened meanwhile.
 */
export class CallerCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private gen = 0;

  constructor(
    private readonly maxAgeMs = CALLER_MAX_AGE_MS,
    private readonly size = CALLERS_KEPT,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.clock()) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry.value;
  }

  generation(): number {
    return this.gen;
  }

  /** Keeps the value unless something was invalidated since `generation` was taken. */
  set(
    key: string,
    value: V,
    owner: { userId: number; actorId: number | null },
    generation: number,
  ): void {
    if (generation !== this.gen) return;
    this.entries.delete(key);
    if (this.entries.size >= this.size) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, ...owner, expiresAt: this.clock() + this.maxAgeMs });
  }

  delete(key: string): void {
    this.gen++;
    this.entries.delete(key);
  }

  /** Drops every entry of the user, and every impersonation entry with them as the actor. */
  deleteUser(userId: number): void {
    this.gen++;
    for (const [key, entry] of this.entries) {
      if (entry.userId === userId || entry.actorId === userId) this.entries.delete(key);
    }
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  get count(): number {
    return this.entries.size;
  }
}
