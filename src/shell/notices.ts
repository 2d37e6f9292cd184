import type { NotificationOptions, NotificationType } from 'ra-core';
import type { StackdeckAuthProvider } from '../../dataProvider';
import { keep } from '../../dataProvider/session';

/** Global messages (spec sections 2, 8, 9): success clears itself, errors can be closed. */
export const SUCCESS_MS = 3000;
export const SESSION_EXPIRED_MS = 4000;

export interface NoticePolicy {
  options: NotificationOptions;
  /** Give the notice a close button. */
  closable: boolean;
}

/** Defaults applied to every notify() call in the app, whoever makes it. */
export function noticePolicy(
  type: NotificationType,
  options: NotificationOptions = {},
): NoticePolicy {
  if (type === 'success' && options.autoHideDuration === undefined) {
    return { options: { ...options, autoHideDuration: SUCCESS_MS }, closable: false };
  }
  return { options, closable: type === 'error' && !options.undoable };
}

/**
 * Messages the authProvider raises while logging a user out (session expiry). react-admin
 * only shows checkError's message while the user is still signed in, and our checkError has
 * already cleared the session by then, so the shell carries the message itself.
 */
export interface SessionNotices {
  publish(message: string): void;
  subscribe(listener: (message: string) => void): () => void;
}

/** The last message, kept in the tab's storage so the tab's next document can show it. */
const CARRIED = 'stackdeck.notice';

/**
 * `tab` (sessionStorage in the browser) carries a message into the tab's next document: a 401
 * of a page's last poll can end the session just as the user opens another page, which loads a
 * new document before the old one showed anything. The new one shows it if it is still fresh.
 */
export function createSessionNotices(now: () => number = Date.now, tab?: Storage): SessionNotices {
  const listeners = new Set<(message: string) => void>();
  let last: { message: string; at: number } | null = null;
  const carried = (): { message: string; at: number } | null => {
    try {
      const kept = JSON.parse(tab?.getItem(CARRIED) ?? 'null') as {
        message?: unknown;
        at?: unknown;
      } | null;
      return typeof kept?.message === 'string' && typeof kept.at === 'number'
        ? { message: kept.message, at: kept.at }
        : null;
    } catch {
      return null;
    }
  };
  return {
    publish(message) {
      // Parallel requests fail together: one expiry, one message.
      const at = now();
      if (last && last.message === message && at - last.at < SESSION_EXPIRED_MS) return;
      last = { message, at };
      keep(tab, CARRIED, JSON.stringify(last));
      for (const listener of listeners) listener(message);
    },
    subscribe(listener) {
      listeners.add(listener);
      const kept = carried();
      // Shown by this document already (same moment), or stale: nothing to carry.
      if (kept && now() - kept.at < SESSION_EXPIRED_MS && kept.at !== last?.at) {
        last = kept;
        listener(kept.message);
      }
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * The authProvider with checkError's message routed to `notices`; react-admin still logs out
 * and redirects as checkError says, but does not try to show the message a second time.
 */
export function withSessionNotices(
  auth: StackdeckAuthProvider,
  notices: SessionNotices,
): StackdeckAuthProvider {
  return {
    ...auth,
    async checkError(error) {
      try {
        await auth.checkError(error);
      } catch (rejection) {
        const reason = rejection as { message?: unknown } | null | undefined;
        if (reason && typeof reason.message === 'string' && reason.message) {
          notices.publish(reason.message);
          throw { ...reason, message: false };
        }
        throw rejection;
      }
    },
  };
}
