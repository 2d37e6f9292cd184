/**
 * Forward loops: mail to an address forwarded to itself, or around a cycle of the panel's
 * forwards (a -> b -> a), would bounce between mailboxes until a hop limit drops it. A domain's
 * catch-all (`@domain`) takes the mail of every address of it that is no mailbox or forwarder.
 */

/** The catch-all key of an address's domain: `@example.com`. */
export const catchAllOf = (address: string) => `@${address.slice(address.lastIndexOf('@') + 1)}`;

/**
 * The first of `targets` from which the panel's forwards lead back to `address` (itself
 * included), or null. `forwards` maps an address to where its mail goes (all of the server's:
 * every mailbox, forwarding or not, every forwarder, and each catch-all as `@domain`); an
 * address it does not know falls to its domain's catch-all, when there is one.
 */
export function loopTarget(
  address: string,
  targets: readonly string[],
  forwards: ReadonlyMap<string, readonly string[]>,
): string | null {
  for (const start of targets) {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length) {
      const next = queue.pop()!;
      const key = forwards.has(next) ? next : catchAllOf(next);
      if (next === address || key === address) return start;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(...(forwards.get(key) ?? []));
    }
  }
  return null;
}
