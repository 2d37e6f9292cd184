import type { NotificationOptions, NotificationType } from 'ra-core';
import type { StackdeckAuthProvider } from '../../dataProvider';

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

export function createSessionNotices(now: () => number = Date.now): SessionNotices {
  const listeners = new Set<(message: string) => void>();
  let last: { message: string; at: number } | null = null;
  return {
    publish(message) {
      // Parallel requests fail together: one expiry, one message.
      const at = now();
      if (last && last.message === message && at - last.at < SESSION_EXPIRED_MS) return;
      last = { message, at };
      for (const listener of listeners) listener(message);
    },
    subscribe(listener) {
      listeners.add(listener);
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
