import { useCallback, useEffect, useState } from 'react';
import { EVENTS } from '../../resources/agent/protocol';
import { listenLive } from '../live/socket';
import { parseTaskPush } from '../live/taskPushLogic';
import { type Unread, unreadAfterAlert, unreadAfterPush } from './unreadCount';

/**
 * The badge's state, counted from the live pushes of tasks and alerts (see ./unreadCount.ts):
 * the unread count and the call that marks all read (on opening and closing the panel).
 */
export function useUnreadMessages(): { count: number; markSeen: () => void } {
  const [unread, setUnread] = useState<Unread>(() => new Set());
  useEffect(() => {
    const stopTasks = listenLive(EVENTS.task, (payload) =>
      setUnread((now) => unreadAfterPush(now, parseTaskPush(payload))),
    );
    const stopAlerts = listenLive(EVENTS.alert, (payload) =>
      setUnread((now) => unreadAfterAlert(now, payload)),
    );
    return () => {
      stopTasks();
      stopAlerts();
    };
  }, []);
  const markSeen = useCallback(() => setUnread(new Set()), []);
  return { count: unread.size, markSeen };
}
