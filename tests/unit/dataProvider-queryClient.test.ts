import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { createQueryClient, shouldRetry } from '../../dataProvider/queryClient';

/** Issue 8: a missing record shows at once; react-query must not retry a 4xx answer. */
describe('the shared query client', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(shouldRetry(0, new HttpError('no', status)), String(status)).toBe(false);
    }
  });

  it('retries network failures and 5xx a few times', () => {
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, new HttpError('down', 503))).toBe(true);
    expect(shouldRetry(3, new HttpError('down', 503))).toBe(false);
  });

  it('a query of a missing record fails after one call', async () => {
    const client = createQueryClient();
    let calls = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['tickets', 999],
        queryFn: () => {
          calls += 1;
          throw new HttpError('No such ticket', 404);
        },
        retry: client.getDefaultOptions().queries?.retry,
      }),
    ).rejects.toThrow('No such ticket');
    // Asked once: no retry, so no retry delay either.
    expect(calls).toBe(1);
  });
});
