import { listedTask, type TaskPush } from '../live/taskPushLogic';

/**
 * The unread count on the messages button: the panel's tasks that moved (a step or their end
 * was pushed, src/live/taskPush.ts) and the alerts that opened or recovered (features/alerts)
 * since the user last opened the panel. It is counted from the pushes, so the closed panel
 * still reads nothing (spec section 2: it polls only while open). Keys name what moved: a task
 * counts once whatever its steps, an alert once per opening and once per recovery.
 */
export type Unread = ReadonlySet<string>;

/** The unread after a task push: a listed task's step or end marks it, others change nothing. */
export function unreadAfterPush(unread: Unread, push: TaskPush | null): Unread {
  if (!push || !listedTask(push)) return unread;
  return withKey(unread, `task:${push.id}`);
}

/** The unread after an alert push (`EVENTS.alert`: the alert as its history lists it). */
export function unreadAfterAlert(unread: Unread, payload: unknown): Unread {
  if (!payload || typeof payload !== 'object') return unread;
  const { id, state } = payload as { id?: unknown; state?: unknown };
  if (typeof id !== 'number' || (state !== 'open' && state !== 'closed')) return unread;
  return withKey(unread, `alert:${id}:${state}`);
}

function withKey(unread: Unread, key: string): Unread {
  return unread.has(key) ? unread : new Set([...unread, key]);
}

/** The badge's words: nothing at zero, and at most `99+`. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
