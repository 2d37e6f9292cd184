/**
 * A release's download, redirect by redirect: the first address is the administrator's (the
 * catalogue's URL or the mirror), so it is fetched as given, a loopback or http mirror
 * included. Every redirect is checked before it is followed: https (http only back to the
 * administrator's own http host), and no loopback, private or link-local address (the server's
 * own services, its network, a cloud metadata service) unless it is that same host.
 */
import { lookup } from 'node:dns/promises';
import { addressAllowed, literalAddress } from '../../resources/agent/addressPolicy';
import { opFieldError } from '../../agent/lib/opError';

/** Redirects followed at most (GitHub's release links take two). */
export const MAX_REDIRECTS = 5;

const failed = (why: string) => opFieldError('url', `The download failed: ${why}`);

/** Why the redirect to `next` may not be followed, or null. */
async function hopProblem(next: URL, first: URL): Promise<string | null> {
  const sameHost = next.hostname === first.hostname;
  if (
    next.protocol !== 'https:' &&
    !(next.protocol === 'http:' && sameHost && first.protocol === 'http:')
  )
    return `a redirect to ${next.protocol}//${next.host} (only https)`;
  if (next.username || next.password) return 'a redirect with a user name or password';
  const allows = addressAllowed(sameHost ? [first.hostname] : []);
  const literal = literalAddress(next.hostname);
  const addresses = literal
    ? [literal]
    : (await lookup(next.hostname, { all: true }).catch(() => [])).map((a) => a.address);
  if (!addresses.length) return `a redirect to ${next.hostname}, which does not resolve`;
  const bad = addresses.find((a) => !allows(next.hostname, a));
  return bad ? `a redirect to ${next.hostname} (${bad}), a private or local address` : null;
}

/** The final answer for `url`, every redirect checked; an op error for a refused one. */
export async function fetchRelease(url: string): Promise<Response> {
  const first = new URL(url);
  let current = first;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { redirect: 'manual' }).catch((e: unknown) => {
      throw failed(String(e));
    });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || !location) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw failed(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    const problem = await hopProblem(next, first);
    if (problem) throw failed(`refused ${problem}`);
    current = next;
  }
}
