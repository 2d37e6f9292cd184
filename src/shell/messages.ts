import type { Clone } from '../../resources/clone-events';

/** The header's messages panel (spec section 2 "Messages panel", section 9). */
export const MESSAGES_SHOWN = 5;
export const MESSAGES_EXPANDED = 10;
/** How often task progress is fetched while nothing pushes it (no live socket). */
export const CLONE_POLL_MS = 1000;
/** With the live socket up progress is pushed (src/live/taskPush.ts): this poll is a safety net. */
export const CLONE_SAFETY_POLL_MS = 15_000;

/** The poll of task progress: every second without pushes, a slow safety net with them. */
export function clonePollMs(pushing: boolean): number {
  return pushing ? CLONE_SAFETY_POLL_MS : CLONE_POLL_MS;
}
export const NO_MESSAGES = 'No Messages available.';

export function visibleMessages<T>(items: readonly T[], expanded: boolean): T[] {
  return items.slice(0, expanded ? MESSAGES_EXPANDED : MESSAGES_SHOWN);
}

/** View More is offered while collapsed and more than five messages exist. */
export function viewToggle(total: number, expanded: boolean): 'more' | 'less' | null {
  if (expanded) return 'less';
  return total > MESSAGES_SHOWN ? 'more' : null;
}

export type CloneState =
  | { kind: 'success' }
  | { kind: 'failed' }
  /** `percent`: ten times the last event's code, kept within 0-100. */
  | { kind: 'cloning'; percent: number; step: string | null };

/** The last event of a clone shows Success when it is completed, else progress = 10 × code %. */
export function cloneState(clone: Pick<Clone, 'status' | 'events'>): CloneState {
  const last = clone.events.at(-1);
  if (last?.event.toLowerCase() === 'completed' || clone.status === 'completed') {
    return { kind: 'success' };
  }
  if (clone.status === 'failed') return { kind: 'failed' };
  const percent = Math.min(100, Math.max(0, (last?.code ?? 0) * 10));
  return { kind: 'cloning', percent, step: last?.event ?? null };
}

/** A line of the server's activity log, as the panel shows it in the server layout. */
export interface ActivityLine {
  id: number;
  message: string;
  status: 'pending' | 'done' | 'failed';
  error: string | null;
  created_at: string;
}

/** One of the user's alerts (features/alerts), as `GET alerts/users/{uid}` lists it. */
export interface AlertLine {
  id: number;
  kind: string;
  subject: string;
  detail: string;
  state: 'open' | 'closed';
  opened_at: string;
  closed_at: string | null;
}

export type PanelMessage =
  | { kind: 'clone'; key: string; at: string; clone: Clone }
  | { kind: 'activity'; key: string; at: string; activity: ActivityLine }
  | { kind: 'alert'; key: string; at: string; alert: AlertLine };

/**
 * The panel's messages, newest first: the clones, and in the server layout the server's
 * activity log too (spec section 2: opening the panel there also loads the activity logs).
 */
export function panelMessages(
  clones: readonly Clone[],
  activity: readonly ActivityLine[] = [],
  alerts: readonly AlertLine[] = [],
): PanelMessage[] {
  const all: PanelMessage[] = [
    ...clones.map((clone) => ({
      kind: 'clone' as const,
      key: `clone-${clone.id}`,
      at: clone.created_at,
      clone,
    })),
    ...activity.map((line) => ({
      kind: 'activity' as const,
      key: `activity-${line.id}`,
      at: line.created_at,
      activity: line,
    })),
    // An alert stands where it last changed: its recovery, else its opening.
    ...alerts.map((alert) => ({
      kind: 'alert' as const,
      key: `alert-${alert.id}`,
      at: alert.closed_at ?? alert.opened_at,
      alert,
    })),
  ];
  return all.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
