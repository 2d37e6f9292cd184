import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { serverEventSchema } from '../../../resources/servers';
import { useStackdeckData } from '../../hooks';

export type InstallEvent = z.infer<typeof serverEventSchema>;

/** Polling period of install events while the install page is open (as clone events poll). */
export const INSTALL_POLL_MS = 1000;

/** A server's install events, in order, read every second while `polling`. */
export function useInstallEvents(serverId: number | null, polling: boolean) {
  const dataProvider = useStackdeckData();
  return useQuery({
    queryKey: ['servers', 'events', serverId],
    enabled: serverId !== null,
    refetchInterval: polling ? INSTALL_POLL_MS : false,
    queryFn: async ({ signal }) => {
      const { data } = await dataProvider.action<{ data: InstallEvent[] }>('servers', 'events', {
        params: { sid: serverId },
        signal,
      });
      return data;
    },
  });
}

/** The code of the install's last event, added by the panel when the agent first connects. */
export const INSTALL_DONE_CODE = 10;

/** Where an install stands, from its events: the last one says. */
export function installState(events: readonly InstallEvent[] | undefined) {
  const last = events?.at(-1);
  const failed = last !== undefined && last.code < 0;
  // A failure (code -1) keeps the bar where the install stopped.
  const reached = events?.findLast((event) => event.code >= 0)?.code ?? 0;
  return {
    last,
    failed,
    /** The agent connected: the panel's code-10 event ends the install. */
    done: !failed && reached >= INSTALL_DONE_CODE,
    /** Progress of the spec's events: ten times the code, in per cent. */
    percent: Math.min(100, Math.max(0, reached * 10)),
  };
}
