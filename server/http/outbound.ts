import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { isIP } from 'node:net';
import { addressAllowed, literalAddress } from '../../resources/agent/addressPolicy';
import { Agent } from 'undici';

/**
 * Calls to addresses a user chose (a self-hosted PowerDNS API, later an S3 endpoint) go through
 * here: such an address may not reach the panel's own host, its network or a cloud metadata
 * service (SSRF), unless the administrator allows it with OUTBOUND_ALLOW. The check runs on the
 * address actually connected to, so a name that resolves elsewhere at connect time (DNS
 * rebinding) is refused too.
 */
export class OutboundBlockedError extends Error {
  readonly code = 'EOUTBOUNDBLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host === address ? address : `${host} (${address})`} is a private or local address; ` +
        'the panel administrator can allow it with OUTBOUND_ALLOW',
    );
  }
}

export interface OutboundPolicy {
  /** Whether `host` may be reached at `address`. */
  allows(host: string, address: string): boolean;
  /** Throws OutboundBlockedError when a URL names a refused address literally. */
  checkUrl(url: string): void;
  /** The dispatcher for fetch: every connection's address is checked. */
  readonly dispatcher: Agent;
}

/**
 * `allow`: host names, addresses or CIDRs (`10.0.0.0/8`, `fd00::/8`) that user-given addresses
 * may reach although private.
 */
export function outboundPolicy(allow: readonly string[]): OutboundPolicy {
  const allows = addressAllowed(allow);

  // net.connect asks this for every name (never for a literal address: see checkUrl).
  const guardedLookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      err: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !allows(hostname, a.address));
      if (refused) return callback(new OutboundBlockedError(hostname, refused.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

  return {
    allows,
    checkUrl(url: string) {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const address = literalAddress(host);
      if (address && !allows(address, address)) throw new OutboundBlockedError(host, address);
    },
    dispatcher: new Agent({ connect: { lookup: guardedLookup } }),
  };
}

/** OUTBOUND_ALLOW: comma- or space-separated host names, addresses and CIDRs. */
export function parseOutboundAllow(value: string | undefined): string[] {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [net, bits, extra] = entry.split('/');
    if (extra !== undefined || (bits !== undefined && !isIP(net ?? '')))
      throw new Error(`OUTBOUND_ALLOW: "${entry}" is not a host name, address or CIDR`);
    if (bits !== undefined) {
      const max = isIP(net ?? '') === 4 ? 32 : 128;
      const n = Number(bits);
      if (!/^\d+$/.test(bits) || n > max)
        throw new Error(`OUTBOUND_ALLOW: "${entry}" has a prefix length out of 0-${max}`);
    } else if (!isIP(entry) && !/^[A-Za-z0-9.-]+$/.test(entry)) {
      throw new Error(`OUTBOUND_ALLOW: "${entry}" is not a host name, address or CIDR`);
    }
  }
  return entries;
}
