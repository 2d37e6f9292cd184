import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useStackdeckData } from '../../src/hooks';
import { useServerLive } from '../../src/live';
import type { svProcess } from './resource';

export type SvProcess = z.infer<typeof svProcess>;

/** The query key of a server's processes: the control buttons refresh it. */
export const processesKey = (sid: number) => ['svjobs', 'procs', sid] as const;

/**
 * The processes of the server's jobs: pushed with the agent's live reports as their states
 * change (a job that starts, stops or fails shows so without a reload), and read through the
 * declared `procs` action when the page opens, after a control button, and every 30 s in case
 * the live feed is down. The newer of the two is shown.
 */
export function useProcesses(sid: number, online: boolean, uuid: string | undefined) {
  const dataProvider = useStackdeckData();
  const live = useServerLive(uuid);
  const query = useQuery({
    queryKey: processesKey(sid),
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: SvProcess[] }>('svjobs', 'procs', { params: { sid }, signal }),
    enabled: online,
    refetchInterval: live.streaming ? 30_000 : 5_000,
    select: (result) => result.data,
  });
  const pushed = live.report?.supervisor;
  // When this browser got it (the agent's clock may differ from the browser's).
  const pushedAt = useMemo(() => (pushed ? Date.now() : 0), [pushed]);
  const newer = pushed !== undefined && pushedAt > query.dataUpdatedAt;
  return { ...query, data: newer ? pushed : query.data };
}

/** `3725` as `1h 2m`: how long a process has run. */
export function uptimeText(seconds: number | null): string {
  if (seconds === null) return '';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${seconds % 60}s`;
  return `${seconds}s`;
}
