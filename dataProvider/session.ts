/**
 * What the browser keeps: the token, and of the user only the id and the admin flag (the spec's
 * rule). While an admin acts as a user, the admin's own session waits under its own key.
 */
export interface Session {
  token: string;
  userId: number;
  isAdmin: boolean;
}

export interface SessionStore {
  get(): Session | null;
  set(session: Session): void;
  /** `expired`: the panel ended it (a 401), not the user signing out. */
  clear(options?: { expired?: boolean }): void;
  /**
   * Whether the panel ended this tab's session moments ago (a 401: expired or revoked) and no
   * other has started since: the guard then sends a user page to /login, where the expiry
   * message shows, not to /register (the rule for a visitor, and after signing out).
   */
  ended(): boolean;
  /** The admin's own session while acting as someone else. */
  getAdmin(): Session | null;
  setAdmin(session: Session | null): void;
  /** Called after every change of this tab's session (sign-in, sign-out, acting). */
  subscribe(listener: () => void): () => void;
}

const TOKEN = 'stackdeck.token';
const USER = 'stackdeck.user';
const ADMIN = 'stackdeck.admin';

function read(storage: Storage, tokenKey: string, userKey: string): Session | null {
  const token = storage.getItem(tokenKey);
  const user = storage.getItem(userKey);
  if (!token || !user) return null;
  try {
    const parsed = JSON.parse(user) as { id?: unknown; is_admin?: unknown };
    if (typeof parsed.id !== 'number') return null;
    return { token, userId: parsed.id, isAdmin: parsed.is_admin === true };
  } catch {
    return null;
  }
}

function write(storage: Storage, tokenKey: string, userKey: string, session: Session) {
  storage.setItem(tokenKey, session.token);
  storage.setItem(userKey, JSON.stringify({ id: session.userId, is_admin: session.isAdmin }));
}

/** Kept in the tab's own storage: when the panel ended this tab's session (`ended`). */
const ENDED = 'stackdeck.ended';
/** How long after its end a page still goes to /login: as long as the expiry message shows. */
export const ENDED_MS = 4000;

/**
 * `storage` keeps the session (localStorage: every tab shares it); `tab` keeps whether this
 * tab's session ended (sessionStorage: it outlives a navigation that loads a new document, as a
 * 401 of a page's last poll just before the user opens another; a new tab is a visitor).
 */
export function storageSessionStore(
  storage: Storage,
  tab: Storage = memoryStorage(),
  now: () => number = Date.now,
): SessionStore {
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  return {
    get: () => read(storage, TOKEN, USER),
    set(session) {
      write(storage, TOKEN, USER, session);
      tab.removeItem(ENDED);
      changed();
    },
    clear(options) {
      const present = read(storage, TOKEN, USER) !== null;
      for (const key of [TOKEN, USER, `${ADMIN}.token`, `${ADMIN}.user`]) storage.removeItem(key);
      if (options?.expired) keep(tab, ENDED, String(now()));
      // Signing out ends the mark; react-admin's logout after a 401 (nothing left to end) keeps it.
      else if (present) tab.removeItem(ENDED);
      changed();
    },
    ended() {
      const at = Number(tab.getItem(ENDED) ?? NaN);
      return now() - at < ENDED_MS && !read(storage, TOKEN, USER);
    },
    getAdmin: () => read(storage, `${ADMIN}.token`, `${ADMIN}.user`),
    setAdmin(session) {
      if (session) write(storage, `${ADMIN}.token`, `${ADMIN}.user`, session);
      else for (const key of [`${ADMIN}.token`, `${ADMIN}.user`]) storage.removeItem(key);
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * Writes to the tab's storage, which may refuse (full, or a browser's private mode): the mark
 * and the message it carries are a courtesy to the next document, never worth an error.
 */
export function keep(tab: Storage | undefined, key: string, value: string): void {
  try {
    tab?.setItem(key, value);
  } catch {
    // Without it the next document shows /register and no message: as before the mark.
  }
}

/** For tests and server-side use: a Storage kept in memory. */
export function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}
