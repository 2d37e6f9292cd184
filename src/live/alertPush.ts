import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { EVENTS } from '../../resources/agent/protocol';
import { listenLive, liveSocketConnected, onLiveSocketChange } from './socket';

/**
 * Alerts pushed by the panel (features/alerts): an alert that opens or closes refetches the
 * user's `alerts` lists (the messages panel, the alert history) at once, as task events do.
 */
export const ALERTS_RESOURCE = 'alerts';

export function useAlertPush(): void {
  const client = useQueryClient();
  useEffect(() => {
    // ra-core's list keys start with the resource: this refetches every mounted alerts list.
    const refresh = () => void client.invalidateQueries({ queryKey: [ALERTS_RESOURCE] });
    const stopPush = listenLive(EVENTS.alert, refresh);
    // Pushes sent while the socket was down are lost: catch up on every (re)connect.
    const stopConnect = onLiveSocketChange(() => {
      if (liveSocketConnected()) refresh();
    });
    return () => {
      stopPush();
      stopConnect();
    };
  }, [client]);
}
