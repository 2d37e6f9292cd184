import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useStackdeckData } from '../../src/hooks';
import type { svProcess } from './resource';

export type SvProcess = z.infer<typeof svProcess>;

/** The query key of a server's processes: the control buttons refresh it. */
export const processesKey = (sid: number) => ['svjobs', 'procs', sid] as const;

/** The processes of the server's jobs (the declared `procs` action), read every 5 s. */
export function useProcesses(sid: number, online: boolean) {
  const dataProvider = useStackdeckData();
  return useQuery({
    queryKey: processesKey(sid),
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: SvProcess[] }>('svjobs', 'procs', { params: { sid }, signal }),
    enabled: online,
    refetchInterval: 5_000,
    select: (result) => result.data,
  });
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
