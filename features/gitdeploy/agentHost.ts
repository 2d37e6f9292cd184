/**
 * A repository's host, checked where git connects from: refused when it names or resolves to a
 * loopback, private or link-local address (the server's own services, its network, a cloud
 * metadata service) unless the panel's administrator allows it (OUTBOUND_ALLOW, sent in the op).
 * An https clone is pinned to the addresses checked (http.curloptResolve), so a second answer of
 * the name (DNS rebinding) cannot move it; ssh resolves again when it connects.
 */
import { lookup } from 'node:dns/promises';
import { addressAllowed, literalAddress } from '../../resources/agent/addressPolicy';
import { opFieldError } from '../../agent/lib/opError';
import type { RepoParts } from './names';

const refused = (host: string, address: string) =>
  opFieldError(
    'repository',
    `${host === address ? address : `${host} (${address})`} is a private or local address; ` +
      'the panel administrator can allow it with OUTBOUND_ALLOW',
  );

/** The host's addresses, each allowed; an op error naming the first refused one. */
export async function checkedAddresses(host: string, allow: readonly string[]): Promise<string[]> {
  const allows = addressAllowed(allow);
  const literal = literalAddress(host);
  if (literal) {
    if (!allows(literal, literal)) throw refused(host, literal);
    return [literal];
  }
  const found = await lookup(host, { all: true }).catch((e: NodeJS.ErrnoException) => {
    throw opFieldError('repository', `${host} could not be resolved: ${e.code ?? e.message}`);
  });
  const bad = found.find((a) => !allows(host, a.address));
  if (bad) throw refused(host, bad.address);
  return found.map((a) => a.address);
}

/** git's `-c` options for the repository: an https host pinned to the checked addresses. */
export async function gitHostOptions(parts: RepoParts, allow: readonly string[]) {
  const addresses = await checkedAddresses(parts.host, allow);
  if (parts.transport !== 'https') return [];
  const list = addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',');
  return ['-c', `http.curloptResolve=${parts.host}:${parts.port}:${list}`];
}
