/**
 * What DNS really answers for a mail domain, compared with the values to publish (research
 * mail.md §4 and §10: a checker that compares expected and actual records, MIAB's status page).
 * The lookups go through a resolver the caller makes: on the panel `new dns.promises.Resolver(
 * { timeout, tries })` with `setServers` from config (tests: a PowerDNS on loopback). Kept free
 * of node:* so this file stays loadable everywhere, like the feature's other helpers.
 */
import type { MailDnsValues } from './dnsValues';
import { SPF_LOOKUP_LIMIT, inNetwork, isSpf, spfCoversIp, spfLookups } from './dnsSpf';

/** The part of `dns.promises.Resolver` the check uses. */
export interface MailDnsResolver {
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  /** Not `reverse()`: node's reverse turns a time-out into ENOTFOUND (getHostByAddr). */
  resolvePtr(name: string): Promise<string[]>;
}

/**
 * ok: as expected. missing: DNS says there is none. different: there is one, not ours (`found`
 * says what). error: a mistake that breaks mail (two SPF records). warning: worth fixing, not
 * blocking (PTR). unchecked: no answer (time-out, SERVFAIL, refused): nothing is known.
 */
export type MailCheckStatus = 'ok' | 'missing' | 'different' | 'error' | 'warning' | 'unchecked';

export interface MailRecordCheck {
  kind: 'dkim' | 'spf' | 'dmarc' | 'mx' | 'mail-a' | 'mail-aaaa' | 'ptr';
  /** The name asked, absolute (for PTR: the server's address). */
  name: string;
  type: 'TXT' | 'MX' | 'A' | 'AAAA' | 'PTR';
  status: MailCheckStatus;
  /** What DNS answered, as text (TXT strings joined). */
  found: string[];
  /** One sentence for the page. */
  message: string;
}

export interface MailDnsCheck {
  /** True when every record is ok or only warned about. */
  ok: boolean;
  records: MailRecordCheck[];
}

/** DNS answered that the name or the type has nothing (NXDOMAIN, NODATA). */
const EMPTY = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

type Answer<T> = { ok: true; value: T } | { ok: false; empty: boolean; code: string };

async function ask<T>(lookup: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await lookup() };
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? 'EUNKNOWN');
    return { ok: false, empty: EMPTY.has(code), code };
  }
}

/** Why a lookup told nothing, in words. */
function unchecked(code: string): string {
  const why: Record<string, string> = {
    ETIMEOUT: 'the DNS server did not answer in time',
    ESERVFAIL: 'the DNS server answered SERVFAIL (it could not resolve the name)',
    EREFUSED: 'the DNS server refused the question',
    ECONNREFUSED: 'the DNS server could not be reached',
  };
  return `Could not check: ${why[code] ?? `the lookup failed (${code})`}. Try again later.`;
}

/** `192.0.2.10` -> `10.2.0.192.in-addr.arpa`. */
const arpa = (ipv4: string) => `${ipv4.split('.').reverse().join('.')}.in-addr.arpa`;
const undot = (h: string) => h.toLowerCase().replace(/\.$/, '');
const squeeze = (s: string) => s.replace(/\s+/g, '');

/** The tags of a `k=v; k=v` record (DKIM, DMARC), keys lower-cased. */
function tags(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return out;
}

export async function checkMailDns(
  values: MailDnsValues,
  resolver: MailDnsResolver,
): Promise<MailDnsCheck> {
  const d = values.domain;
  const txt = (name: string) =>
    ask(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')));

  const checks: Promise<MailRecordCheck>[] = [
    txt(values.dkim.fqdn).then((a) => checkDkim(values, a)),
    txt(d).then((a) => checkSpf(values, a)),
    txt(values.dmarc.fqdn).then((a) => checkDmarc(values, a)),
    ask(() => resolver.resolveMx(d)).then((a) => checkMx(values, a)),
    ask(() => resolver.resolve4(`mail.${d}`)).then((a) =>
      checkAddress(values, 'mail-a', a, [values.ipv4], 4),
    ),
    ...(values.ipv6
      ? [
          ask(() => resolver.resolve6(`mail.${d}`)).then((a) =>
            checkAddress(values, 'mail-aaaa', a, [values.ipv6!], 6),
          ),
        ]
      : []),
    ask(() => resolver.resolvePtr(arpa(values.ipv4))).then((a) => checkPtr(values, a)),
  ];
  const records = await Promise.all(checks);
  return { ok: records.every((r) => r.status === 'ok' || r.status === 'warning'), records };
}

type Base = Pick<MailRecordCheck, 'kind' | 'name' | 'type'>;

/** The common outcomes: no answer (unchecked), nothing there (missing). */
function settle<T>(
  base: Base,
  a: Answer<T>,
  missing: string,
  judge: (value: T) => Omit<MailRecordCheck, keyof Base>,
): MailRecordCheck {
  if (a.ok) return { ...base, ...judge(a.value) };
  if (a.empty) return { ...base, status: 'missing', found: [], message: missing };
  return { ...base, status: 'unchecked', found: [], message: unchecked(a.code) };
}

function checkDkim(values: MailDnsValues, a: Answer<string[]>): MailRecordCheck {
  const base: Base = { kind: 'dkim', name: values.dkim.fqdn, type: 'TXT' };
  const missing = `No DKIM record at ${values.dkim.fqdn}: receivers cannot verify the signatures.`;
  const want = tags(values.dkim.content).get('p') ?? '';
  return settle(base, a, missing, (texts) => {
    const dkim = texts.filter((t) => /^\s*v\s*=\s*DKIM1\b/i.test(t) || tags(t).has('p'));
    if (dkim.length === 0) return { status: 'missing', found: texts, message: missing };
    if (dkim.length > 1)
      return {
        status: 'error',
        found: dkim,
        message: `${dkim.length} DKIM records at ${values.dkim.fqdn}: receivers may pick either, keep only ours.`,
      };
    const p = squeeze(tags(dkim[0]!).get('p') ?? '');
    if (p === squeeze(want))
      return { status: 'ok', found: dkim, message: 'The DKIM key is published.' };
    return {
      status: 'different',
      found: dkim,
      message: p
        ? `The published DKIM key (p=…${p.slice(-12)}) is not this server's (p=…${want.slice(-12)}): signatures will fail.`
        : 'The published DKIM record has an empty p=: the key is revoked.',
    };
  });
}

function checkSpf(values: MailDnsValues, a: Answer<string[]>): MailRecordCheck {
  const base: Base = { kind: 'spf', name: values.domain, type: 'TXT' };
  const missing = `No SPF record at ${values.domain}: receivers cannot tell which servers may send its mail.`;
  return settle(base, a, missing, (texts) => {
    const spf = texts.filter(isSpf);
    if (spf.length === 0) return { status: 'missing', found: [], message: missing };
    if (spf.length > 1)
      return {
        status: 'error',
        found: spf,
        message: `${spf.length} SPF records: receivers treat this as an error (RFC 7208) and SPF fails. Merge them into one.`,
      };
    const record = spf[0]!;
    const problems: string[] = [];
    if (!spfCoversIp(record, values.ipv4, 4))
      problems.push(`does not list this server's address (ip4:${values.ipv4})`);
    if (values.ipv6 && !spfCoversIp(record, values.ipv6, 6))
      problems.push(`does not list this server's IPv6 address (ip6:${values.ipv6})`);
    const lookups = spfLookups(record);
    if (lookups > SPF_LOOKUP_LIMIT)
      problems.push(`needs ${lookups} DNS lookups, over the limit of ${SPF_LOOKUP_LIMIT}`);
    if (problems.length)
      return {
        status: 'different',
        found: spf,
        message: `The SPF record ${problems.join(', and ')}.`,
      };
    return { status: 'ok', found: spf, message: 'The SPF record lets this server send.' };
  });
}

function checkDmarc(values: MailDnsValues, a: Answer<string[]>): MailRecordCheck {
  const base: Base = { kind: 'dmarc', name: values.dmarc.fqdn, type: 'TXT' };
  const missing = `No DMARC record at ${values.dmarc.fqdn}: large receivers (Gmail, Yahoo) expect one.`;
  return settle(base, a, missing, (texts) => {
    const dmarc = texts.filter((t) => /^\s*v\s*=\s*DMARC1\s*(;|$)/i.test(t));
    if (dmarc.length === 0) return { status: 'missing', found: [], message: missing };
    if (dmarc.length > 1)
      return {
        status: 'error',
        found: dmarc,
        message: `${dmarc.length} DMARC records: receivers ignore them all. Keep one.`,
      };
    const p = tags(dmarc[0]!).get('p')?.toLowerCase();
    if (p !== 'none' && p !== 'quarantine' && p !== 'reject')
      return {
        status: 'different',
        found: dmarc,
        message: 'The DMARC record has no valid policy (p=none, quarantine or reject).',
      };
    return {
      status: 'ok',
      found: dmarc,
      message:
        p === 'none'
          ? 'DMARC is published with p=none: reports only, nothing is blocked yet.'
          : `DMARC is published with p=${p}.`,
    };
  });
}

function checkMx(
  values: MailDnsValues,
  a: Answer<{ exchange: string; priority: number }[]>,
): MailRecordCheck {
  const base: Base = { kind: 'mx', name: values.domain, type: 'MX' };
  const target = `mail.${values.domain}`;
  const missing = `No MX record: mail to @${values.domain} has nowhere to go.`;
  return settle(base, a, missing, (mx) => {
    mx = [...mx].sort((x, y) => x.priority - y.priority);
    const found = mx.map((m) => `${m.priority} ${undot(m.exchange)}`);
    if (mx.length === 0) return { status: 'missing', found, message: missing };
    const ours = mx.some((m) => undot(m.exchange) === target);
    const others = mx.filter((m) => undot(m.exchange) !== target).map((m) => undot(m.exchange));
    if (ours && others.length === 0)
      return { status: 'ok', found, message: `Mail to @${values.domain} comes to ${target}.` };
    return {
      status: 'different',
      found,
      message: ours
        ? `MX also points at ${others.join(', ')}: some mail will go there instead of ${target}.`
        : `MX points at ${others.join(', ')}, not at ${target}: mail goes elsewhere.`,
    };
  });
}

function checkAddress(
  values: MailDnsValues,
  kind: 'mail-a' | 'mail-aaaa',
  a: Answer<string[]>,
  want: string[],
  family: 4 | 6,
): MailRecordCheck {
  const name = `mail.${values.domain}`;
  const base: Base = { kind, name, type: family === 4 ? 'A' : 'AAAA' };
  const label = family === 4 ? 'IPv4' : 'IPv6';
  const missing = `${name} has no ${label} address: the MX points at nothing.`;
  // The same address written differently (IPv6's zeros) is the same address.
  const same = (x: string, y: string) => inNetwork(x, y, family);
  return settle(base, a, missing, (found) => {
    if (found.length === 0) return { status: 'missing', found, message: missing };
    const ok =
      found.every((f) => want.some((w) => same(f, w))) &&
      want.every((w) => found.some((f) => same(f, w)));
    return ok
      ? { status: 'ok', found, message: `${name} is this server (${want.join(', ')}).` }
      : {
          status: 'different',
          found,
          message: `${name} is ${found.join(', ')}, not this server's ${want.join(', ')}.`,
        };
  });
}

function checkPtr(values: MailDnsValues, a: Answer<string[]>): MailRecordCheck {
  const base: Base = { kind: 'ptr', name: values.ipv4, type: 'PTR' };
  const host = values.mailHost;
  const advice = `Ask the server's provider to set it to ${host}: receivers distrust mail from an address whose name does not match.`;
  if (!a.ok && a.empty)
    return {
      ...base,
      status: 'warning',
      found: [],
      message: `${values.ipv4} has no PTR name. ${advice}`,
    };
  if (!a.ok) return { ...base, status: 'unchecked', found: [], message: unchecked(a.code) };
  const found = a.value.map(undot);
  if (found.includes(host))
    return { ...base, status: 'ok', found, message: `${values.ipv4} points back at ${host}.` };
  return {
    ...base,
    status: 'warning',
    found,
    message: `${values.ipv4} points back at ${found.join(', ') || 'nothing'}, not ${host}. ${advice}`,
  };
}
