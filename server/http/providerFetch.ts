import { type Response, fetch } from 'undici';
import { OutboundBlockedError, type OutboundPolicy } from './outbound';

/**
 * Calls to the APIs of providers (DNS, cloud, git, storage): a time limit, no redirects, the
 * outbound policy for addresses users give, and failures as ProviderError in a user's words.
 */

export type ProviderFailure = 'auth' | 'not_found' | 'invalid' | 'conflict' | 'unreachable';

/** What went wrong at the provider, in words a user can act on (never with the credential). */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of an address, however deep in a failed fetch's causes. */
export function blockedBy(error: unknown): OutboundBlockedError | undefined {
  for (let e = error; e instanceof Error; e = e.cause)
    if (e instanceof OutboundBlockedError) return e;
  return undefined;
}

export async function providerFetch(
  provider: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  outbound?: OutboundPolicy,
  timeoutMs = 10_000,
): Promise<Response> {
  try {
    outbound?.checkUrl(url);
    return await fetch(url, {
      ...init,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      dispatcher: outbound?.dispatcher,
    });
  } catch (error) {
    const blocked = blockedBy(error);
    if (blocked) throw new ProviderError('invalid', `${provider}: ${blocked.message}`);
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? 'no answer in time'
        : ((error as { cause?: { code?: string } }).cause?.code ?? 'connection failed');
    throw new ProviderError(
      'unreachable',
      `Could not reach ${provider} at ${new URL(url).origin} (${why})`,
    );
  }
}
