import { listedTask, type TaskPush } from '../live/taskPushLogic';

/**
 * The unread count on the messages button: the panel's tasks that moved (a step or their end
 * was pushed, src/live/taskPush.ts) since the user last opened the panel. It is counted from
 * the pushes, so the closed panel still reads nothing (spec section 2: it polls only while open).
 */

/** The tasks unread after a push: a listed task's step or end marks it, others change nothing. */
export function unreadAfterPush(
  unread: ReadonlySet<number>,
  push: TaskPush | null,
): ReadonlySet<number> {
  if (!push || !listedTask(push) || unread.has(push.id)) return unread;
  return new Set([...unread, push.id]);
}

/** The badge's words: nothing at zero, and at most `99+`. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
