/**
 * Forward loops: mail to an address forwarded to itself, or around a cycle of the panel's
 * forwards (a -> b -> a), would bounce between mailboxes until a hop limit drops it.
 */

/**
 * The first of `targets` from which the panel's forwards lead back to `address` (itself
 * included), or null. `forwards` maps an address to where its mail goes (all of the server's).
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
      if (next === address) return start;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(forwards.get(next) ?? []));
    }
  }
  return null;
}
