import { useCallback, useSyncExternalStore } from 'react';
import type { Report } from '../../resources/agent/protocol';
import {
  INITIAL_LIVE_STATE,
  followServer,
  liveSocketConnected,
  onLiveSocketChange,
  serverLiveState,
} from './socket';

export interface ServerLive {
  /**
   * The server's agent is connected. null until the panel has answered (then the server
   * record's own `connected` is the best guess).
   */
  connected: boolean | null;
  /** The latest live report, null before the first one arrives. */
  report: Report | null;
  /** This tab's connection to the panel's live feed is up. */
  streaming: boolean;
  /** The panel refused the subscription (a server this user may not see). */
  error: string | null;
}

const noop = () => () => undefined;

/**
 * A server's live reports over the shared `/live` socket: subscribes on mount, unsubscribes
 * on unmount, subscribes again after every reconnect. Pass the server's uuid (not its id);
 * null or undefined follows nothing.
 */
export function useServerLive(uuid: string | null | undefined): ServerLive {
  const subscribe = useCallback(
    (listener: () => void) => (uuid ? followServer(uuid, listener) : noop()),
    [uuid],
  );
  const state = useSyncExternalStore(subscribe, () =>
    uuid ? serverLiveState(uuid) : INITIAL_LIVE_STATE,
  );
  const streaming = useSyncExternalStore(onLiveSocketChange, liveSocketConnected);
  return { ...state, streaming };
}
