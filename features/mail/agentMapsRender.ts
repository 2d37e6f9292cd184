/**
 * Postfix's lookup tables of the panel's mail, pure: rendered whole from every domain's
 * mailboxes and forwards (one write per file per op, however many mailboxes changed).
 */

export interface Forward {
  id: number;
  /** A local part, or `@` for the catch-all. */
  source: string;
  targets: string[];
  keep_copy: boolean;
}

export interface DomainState {
  domain: string;
  locals: readonly string[];
  forwards: readonly Forward[];
}

export const MAP_NAMES = ['vdomains', 'vmailboxes', 'valiases', 'sender_login'] as const;
export type MapName = (typeof MAP_NAMES)[number];

const lines = (entries: Iterable<[string, string]>) =>
  [...entries].map(([k, v]) => `${k} ${v}\n`).join('');

export function renderMaps(domains: readonly DomainState[]): Record<MapName, string> {
  const sorted = [...domains].sort((a, b) => a.domain.localeCompare(b.domain));
  const mailboxes = new Set(sorted.flatMap((d) => d.locals.map((l) => `${l}@${d.domain}`)));
  const aliases = new Map<string, string>();
  const senders = new Map<string, Set<string>>();
  for (const address of mailboxes) senders.set(address, new Set([address]));
  for (const d of sorted) {
    const catchAll = d.forwards.some((f) => f.source === '@');
    // A catch-all would swallow the real mailboxes unless each maps to itself (VIRTUAL_README).
    if (catchAll) for (const l of d.locals) aliases.set(`${l}@${d.domain}`, `${l}@${d.domain}`);
    for (const f of d.forwards) {
      if (f.source === '@') {
        aliases.set(`@${d.domain}`, f.targets.join(','));
        continue;
      }
      const source = `${f.source}@${d.domain}`;
      const targets = f.keep_copy && mailboxes.has(source) ? [source, ...f.targets] : f.targets;
      aliases.set(source, [...new Set(targets)].join(','));
      // Mailboxes that receive an address may send as it.
      const logins = senders.get(source) ?? new Set<string>();
      for (const t of f.targets) if (mailboxes.has(t)) logins.add(t);
      if (logins.size) senders.set(source, logins);
    }
  }
  return {
    vdomains: lines(sorted.map((d) => [d.domain, 'OK'])),
    vmailboxes: lines([...mailboxes].map((a) => [a, 'OK'])),
    valiases: lines(aliases),
    sender_login: lines([...senders].map(([k, v]) => [k, [...v].join(',')])),
  };
}

/** The addresses that reach a mailbox (itself first): Sieve vacation's `:addresses`. */
export function addressesOf(address: string, domains: readonly DomainState[]): string[] {
  const out = [address];
  for (const d of domains)
    for (const f of d.forwards) {
      if (f.source === '@' || !f.targets.includes(address)) continue;
      const source = `${f.source}@${d.domain}`;
      if (!out.includes(source)) out.push(source);
    }
  return out;
}
