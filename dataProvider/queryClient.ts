import { QueryClient } from '@tanstack/react-query';

/** Retries of a failed read: a network blip or a 5xx may pass, a 4xx answer will not. */
export const MAX_RETRIES = 3;

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/**
 * Whether a failed query is tried again. A 4xx answer (a missing record, a foreign id, no
 * right, a bad request) is final: the page shows its not-found or error state at once
 * instead of after react-query's default three retries (~8 s).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** The app's one QueryClient: every read of every page follows the same retry rule. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry },
      // Writes are never retried behind the user's back.
      mutations: { retry: false },
    },
  });
}
