import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { EVENTS } from '../../resources/agent/protocol';
import { coalesce, listedTask, parseTaskPush } from './taskPushLogic';
import { listenLive, liveSocketConnected, onLiveSocketChange } from './socket';

/**
 * Task progress pushed by the panel (issue 11, server/tasks/taskPush.ts): each step or end of
 * one of the user's tasks refetches the `clone-events` queries (the messages panel, an
 * install's page) at once. While the socket is up their polling is only a safety net.
 */

export const TASK_EVENTS_RESOURCE = 'clone-events';
const REFRESH_MS = 50;

/** The query clients of the mounted hooks (one in the app), each with its count of hooks. */
const clients = new Map<QueryClient, number>();
let stop: (() => void) | null = null;

// ra-core's list keys start with the resource: this refetches every mounted clone-events list.
const refresh = coalesce(() => {
  for (const client of clients.keys())
    void client.invalidateQueries({ queryKey: [TASK_EVENTS_RESOURCE] });
}, REFRESH_MS);

function follow(client: QueryClient): () => void {
  clients.set(client, (clients.get(client) ?? 0) + 1);
  if (!stop) {
    const stopPush = listenLive(EVENTS.task, (payload) => {
      const push = parseTaskPush(payload);
      if (push && listedTask(push)) refresh();
    });
    // Pushes sent while the socket was down are lost: catch up on every (re)connect.
    const stopConnect = onLiveSocketChange(() => {
      if (liveSocketConnected()) refresh();
    });
    stop = () => {
      stopPush();
      stopConnect();
    };
  }
  return () => {
    const left = (clients.get(client) ?? 1) - 1;
    if (left > 0) clients.set(client, left);
    else clients.delete(client);
    if (clients.size === 0 && stop) {
      stop();
      stop = null;
    }
  };
}

/**
 * Refetches the user's `clone-events` lists when the panel pushes a task's progress. Returns
 * whether pushes arrive now (the socket is connected): the caller's poll then slows down.
 */
export function useTaskPush(): boolean {
  const client = useQueryClient();
  useEffect(() => follow(client), [client]);
  return useSyncExternalStore(onLiveSocketChange, liveSocketConnected);
}
