import { useCallback, useEffect, useState } from 'react';
import { EVENTS } from '../../resources/agent/protocol';
import { listenLive } from '../live/socket';
import { parseTaskPush } from '../live/taskPushLogic';
import { unreadAfterPush } from './unreadCount';

/**
 * The badge's state, counted from the live task pushes (see ./unreadCount.ts): the unread task
 * count and the call that marks all read (on opening and closing the panel).
 */
export function useUnreadMessages(): { count: number; markSeen: () => void } {
  const [unread, setUnread] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(
    () =>
      listenLive(EVENTS.task, (payload) =>
        setUnread((now) => unreadAfterPush(now, parseTaskPush(payload))),
      ),
    [],
  );
  const markSeen = useCallback(() => setUnread(new Set()), []);
  return { count: unread.size, markSeen };
}
