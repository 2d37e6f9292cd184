import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useStackdeckData } from '../../src/hooks';

/** One firewall call of the page's server, cached by name; `refresh` reads them all again. */
export function useFirewallQuery<T>(sid: number, resource: string, action: string, enabled = true) {
  const dp = useStackdeckData();
  return useQuery({
    queryKey: ['firewall', sid, resource, action],
    queryFn: ({ signal }) =>
      dp.action<T>(resource, action, { params: { sid }, query: { perPage: 100 }, signal }),
    enabled,
    retry: false,
  });
}

export function useFirewallRefresh(sid: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['firewall', sid] });
}
