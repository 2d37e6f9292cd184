import { describe, expect, it } from 'vitest';
import { resources } from '../../resources';
import type { ResourceDef } from '../../resources/define';
import { SESSION_EXPIRED, createAuthProvider } from '../../dataProvider/authProvider';
import type { StackdeckDataProvider } from '../../dataProvider/dataProvider';
import { ENDED_MS, memoryStorage, storageSessionStore } from '../../dataProvider/session';
import {
  SESSION_EXPIRED_MS,
  SUCCESS_MS,
  createSessionNotices,
  noticePolicy,
  withSessionNotices,
} from '../../src/shell/notices';

describe('global message rules (spec sections 2 and 9)', () => {
  it('clears success after 3000 ms unless the caller says otherwise', () => {
    expect(SUCCESS_MS).toBe(3000);
    expect(noticePolicy('success')).toEqual({
      options: { autoHideDuration: 3000 },
      closable: false,
    });
    expect(noticePolicy('success', { autoHideDuration: 9000 }).options.autoHideDuration).toBe(9000);
  });

  it('makes errors closable, leaves default notices alone', () => {
    expect(noticePolicy('error')).toEqual({ options: {}, closable: true });
    expect(noticePolicy('info')).toEqual({ options: {}, closable: false });
    expect(noticePolicy('error', { undoable: true }).closable).toBe(false);
  });
});

/** The real authProvider over a memory store; no call reaches the network in these tests. */
function signedInAuth() {
  const sessions = storageSessionStore(memoryStorage());
  sessions.set({ token: 't', userId: 4, isAdmin: false });
  const auth = createAuthProvider({
    dataProvider: {} as StackdeckDataProvider,
    sessions,
    resources: resources as Record<string, ResourceDef>,
  });
  return { auth, sessions };
}

describe('session expiry message (spec section 8)', () => {
  it('shows the message for 4000 ms', () => {
    expect(SESSION_EXPIRED_MS).toBe(4000);
  });

  it('routes checkError’s "token expired" message to the shell and still logs out to /login', async () => {
    const { auth, sessions } = signedInAuth();
    const notices = createSessionNotices();
    const shown: string[] = [];
    notices.subscribe((message) => shown.push(message));
    const shell = withSessionNotices(auth, notices);

    await expect(shell.checkError({ status: 401, message: 'token expired' })).rejects.toEqual({
      redirectTo: '/login',
      message: false,
    });
    expect(shown).toEqual([SESSION_EXPIRED]);
    expect(sessions.get()).toBeNull();
  });

  it('says nothing for other 401s, and sends 403 to /403 without logging out', async () => {
    const { auth } = signedInAuth();
    const notices = createSessionNotices();
    const shown: string[] = [];
    notices.subscribe((message) => shown.push(message));
    const shell = withSessionNotices(auth, notices);
    await expect(shell.checkError({ status: 401, message: 'token revoked' })).rejects.toMatchObject(
      {
        redirectTo: '/login',
      },
    );
    await expect(shell.checkError({ status: 403 })).rejects.toEqual({
      redirectTo: '/403',
      logoutUser: false,
      message: false,
    });
    await expect(shell.checkError({ status: 500 })).resolves.toBeUndefined();
    expect(shown).toEqual([]);
  });

  it('keeps the authProvider’s other methods', () => {
    const { auth } = signedInAuth();
    const shell = withSessionNotices(auth, createSessionNotices());
    expect(shell.isActing()).toBe(false);
    expect(shell.pendingLogin()).toBeNull();
  });

  it('shows one message when parallel requests expire together', () => {
    let now = 0;
    const notices = createSessionNotices(() => now);
    const shown: string[] = [];
    const stop = notices.subscribe((message) => shown.push(message));
    notices.publish(SESSION_EXPIRED);
    now = 50;
    notices.publish(SESSION_EXPIRED);
    expect(shown).toHaveLength(1);
    now = 50 + SESSION_EXPIRED_MS;
    notices.publish(SESSION_EXPIRED);
    expect(shown).toHaveLength(2);
    stop();
    notices.publish('other');
    expect(shown).toHaveLength(2);
  });
});

describe('a session that ends as the tab loads another page (a new document)', () => {
  it("still sends a user page to /login, in that tab only, for the message's time", () => {
    let clock = 1_000_000;
    const shared = memoryStorage();
    const tab = memoryStorage();
    const store = () => storageSessionStore(shared, tab, () => clock);
    store().set({ token: 't', userId: 4, isAdmin: false });
    // The old document's last poll answered 401; react-admin then logs out (nothing left).
    store().clear({ expired: true });
    store().clear();
    clock += 500;
    // The next document of the same tab knows; another tab is a visitor.
    expect(store().ended()).toBe(true);
    expect(storageSessionStore(shared, memoryStorage(), () => clock).ended()).toBe(false);
    // Later, a protected page goes to /register again (spec s.2).
    clock += ENDED_MS;
    expect(store().ended()).toBe(false);
    // Signing out is the user's own end: /register at once.
    store().set({ token: 'u', userId: 4, isAdmin: false });
    store().clear();
    expect(store().ended()).toBe(false);
  });

  it('shows the expiry message there if it is still fresh, once', () => {
    let clock = 1_000_000;
    const tab = memoryStorage();
    createSessionNotices(() => clock, tab).publish(SESSION_EXPIRED);
    clock += 500;
    const next = createSessionNotices(() => clock, tab);
    const shown: string[] = [];
    next.subscribe((message) => shown.push(message));
    // The relay mounting again in the same document does not show it twice.
    next.subscribe((message) => shown.push(message));
    expect(shown).toEqual([SESSION_EXPIRED]);
    // A document loaded after the message's 4000 ms shows nothing.
    clock += SESSION_EXPIRED_MS;
    const late: string[] = [];
    createSessionNotices(() => clock, tab).subscribe((message) => late.push(message));
    expect(late).toEqual([]);
  });

  it('still ends the session and shows the message where the tab refuses to store them', () => {
    const refusing = memoryStorage();
    refusing.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    const shared = memoryStorage();
    const store = storageSessionStore(shared, refusing);
    store.set({ token: 't', userId: 3, isAdmin: false });
    store.clear({ expired: true });
    expect(store.get()).toBeNull();
    // Nothing marks the end: the next page is the visitor's /register, without an error.
    expect(store.ended()).toBe(false);
    const shown: string[] = [];
    const notices = createSessionNotices(Date.now, refusing);
    notices.subscribe((message) => shown.push(message));
    notices.publish(SESSION_EXPIRED);
    expect(shown).toEqual([SESSION_EXPIRED]);
  });
});
