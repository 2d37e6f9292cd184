import { useNotify } from 'ra-core';
import { useCallback } from 'react';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { useServerPage } from './ServerContext';

/**
 * Runs a declared action of a resource for the page's server; failures are notified (and
 * rethrown so callers can keep their state), a success message is optional.
 */
export function useServerCall() {
  const dp = useStackdeckData();
  const notify = useNotify();
  const { sid } = useServerPage();
  return useCallback(
    async <T>(
      resource: string,
      action: string,
      call: { query?: Record<string, unknown>; body?: unknown } = {},
      success?: string,
    ): Promise<T> => {
      try {
        const result = await dp.action<T>(resource, action, { ...call, params: { sid } });
        if (success) notify(success, { type: 'success' });
        return result;
      } catch (error) {
        notify(errorMessage(error), { type: 'error' });
        throw error;
      }
    },
    [dp, notify, sid],
  );
}
