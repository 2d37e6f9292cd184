import type { DnsRecordType } from './schemas';
import type { OutboundPolicy } from '../../server/http/outbound';
import {
  type DnsProvider,
  type ProviderRecord,
  type ProviderZone,
  type RecordData,
  SUPPORTED_TYPES,
  canonicalIpv6,
} from './serverProvider';
import { ProviderError, providerFetch } from '../../server/http/providerFetch';

interface PdnsRrset {
  name: string;
  type: string;
  ttl: number;
  records: { content: string; disabled: boolean }[];
}

const dot = (name: string) => (name.endsWith('.') ? name : `${name}.`);
const undot = (name: string) => name.replace(/\.$/, '');

/** TXT text as PowerDNS wants it: quoted strings of at most 255 bytes, `"` and `\` escaped. */
function quoteTxt(text: string): string {
  const chunks = text.match(/[\s\S]{1,255}/g) ?? [''];
  return chunks.map((c) => `"${c.replace(/["\\]/g, (m) => `\\${m}`)}"`).join(' ');
}

function unquoteTxt(content: string): string {
  const parts = [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    (m[1] ?? '').replace(/\\(\d{3}|.)/g, (_, e: string) =>
      e.length === 3 ? String.fromCharCode(Number(e)) : e,
    ),
  );
  return parts.length ? parts.join('') : content;
}

/** Record fields -> PowerDNS's presentation format. */
export function toPdnsContent(r: RecordData): string {
  switch (r.type) {
    case 'A':
      return r.content;
    case 'AAAA':
      return canonicalIpv6(r.content);
    case 'CNAME':
    case 'NS':
      return dot(r.content);
    case 'MX':
      return `${r.priority ?? 10} ${dot(r.content)}`;
    case 'TXT':
      return quoteTxt(r.content);
    case 'SRV':
      return `${r.priority ?? 10} ${r.weight ?? 5} ${r.port ?? 0} ${dot(r.content)}`;
    case 'CAA':
      return `${r.flags ?? 0} ${r.tag ?? 'issue'} "${r.content}"`;
  }
}

/** PowerDNS's presentation format -> record fields. */
export function fromPdns(
  fqdn: string,
  type: DnsRecordType,
  ttl: number,
  content: string,
): RecordData {
  const base: RecordData = {
    type,
    fqdn,
    ttl,
    content,
    priority: null,
    weight: null,
    port: null,
    flags: null,
    tag: null,
  };
  const words = content.split(/\s+/);
  switch (type) {
    case 'CNAME':
    case 'NS':
      return { ...base, content: undot(content) };
    case 'MX':
      return { ...base, priority: Number(words[0]), content: undot(words[1] ?? '') };
    case 'TXT':
      return { ...base, content: unquoteTxt(content) };
    case 'SRV':
      return {
        ...base,
        priority: Number(words[0]),
        weight: Number(words[1]),
        port: Number(words[2]),
        content: undot(words[3] ?? ''),
      };
    case 'CAA':
      return {
        ...base,
        flags: Number(words[0]),
        tag: words[1] ?? '',
        content: unquoteTxt(words.slice(2).join(' ')),
      };
    default:
      return base;
  }
}

const refOf = (fqdn: string, type: string, content: string) => `${fqdn}|${type}|${content}`;
function parseRef(ref: string): { fqdn: string; type: string; content: string } {
  const [fqdn = '', type = '', ...rest] = ref.split('|');
  return { fqdn, type, content: rest.join('|') };
}

/** PowerDNS through its HTTP API (`/api/v1`, `X-API-Key`), server `localhost`. */
export class PowerDnsProvider implements DnsProvider {
  readonly name = 'PowerDNS';

  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    /** The address is the user's: it may not reach private networks unless allowed. */
    private readonly outbound: OutboundPolicy,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await providerFetch(
      this.name,
      `${this.apiUrl}/api/v1${path}`,
      {
        method,
        headers: {
          'X-API-Key': this.apiKey,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      this.outbound,
    );
    const text = await res.text();
    if (res.status === 401 || res.status === 403)
      throw new ProviderError('auth', 'PowerDNS refused the API key');
    // Only PowerDNS's own JSON is passed on: the address is the user's, and whatever else
    // answers there (another service on the panel's network) must not be read back through it.
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ProviderError(
        'invalid',
        `${new URL(this.apiUrl).origin} does not answer like a PowerDNS API (HTTP ${res.status})`,
      );
    }
    if (res.ok) return json as T;
    const error = (json as { error?: unknown } | undefined)?.error;
    const message = typeof error === 'string' ? error.slice(0, 300) : `HTTP ${res.status}`;
    if (res.status === 404)
      throw new ProviderError('not_found', `PowerDNS: ${message || 'not found'}`);
    if (res.status === 409) throw new ProviderError('conflict', `PowerDNS: ${message}`);
    if (res.status === 422 || res.status === 400)
      throw new ProviderError('invalid', `PowerDNS: ${message}`);
    throw new ProviderError('unreachable', `PowerDNS answered ${res.status}: ${message}`);
  }

  async verify(): Promise<void> {
    const servers = await this.call<unknown>('GET', '/servers');
    if (!Array.isArray(servers))
      throw new ProviderError('invalid', 'This address does not answer like a PowerDNS API');
  }

  async listZones(): Promise<ProviderZone[]> {
    const zones = await this.call<{ id: string; name: string }[]>(
      'GET',
      '/servers/localhost/zones',
    );
    return zones.map((z) => ({ id: z.id, name: undot(z.name) }));
  }

  async createZone(name: string, nameservers: string[]): Promise<ProviderZone> {
    const zone = await this.call<{ id: string; name: string }>('POST', '/servers/localhost/zones', {
      name: dot(name),
      kind: 'Native',
      nameservers: nameservers.map(dot),
    });
    return { id: zone.id, name: undot(zone.name) };
  }

  async deleteZone(zone: ProviderZone): Promise<void> {
    await this.call('DELETE', `/servers/localhost/zones/${encodeURIComponent(zone.id)}`);
  }

  private async rrsets(zone: ProviderZone): Promise<PdnsRrset[]> {
    const full = await this.call<{ rrsets: PdnsRrset[] }>(
      'GET',
      `/servers/localhost/zones/${encodeURIComponent(zone.id)}`,
    );
    return full.rrsets;
  }

  async listRecords(zone: ProviderZone): Promise<ProviderRecord[]> {
    const out: ProviderRecord[] = [];
    for (const set of await this.rrsets(zone)) {
      if (!SUPPORTED_TYPES.has(set.type)) continue;
      const fqdn = undot(set.name);
      for (const r of set.records) {
        out.push({
          ...fromPdns(fqdn, set.type as DnsRecordType, set.ttl, r.content),
          ref: refOf(fqdn, set.type, r.content),
        });
      }
    }
    return out;
  }

  /** Replaces the contents of one rrset (`name`, `type`), or deletes it when none are left. */
  private async patch(
    zone: ProviderZone,
    fqdn: string,
    type: string,
    ttl: number,
    contents: string[],
  ) {
    await this.call('PATCH', `/servers/localhost/zones/${encodeURIComponent(zone.id)}`, {
      rrsets: [
        contents.length
          ? {
              name: dot(fqdn),
              type,
              ttl,
              changetype: 'REPLACE',
              records: contents.map((content) => ({ content, disabled: false })),
            }
          : { name: dot(fqdn), type, changetype: 'DELETE' },
      ],
    });
  }

  private async contentsOf(zone: ProviderZone, fqdn: string, type: string): Promise<string[]> {
    const set = (await this.rrsets(zone)).find((s) => undot(s.name) === fqdn && s.type === type);
    return set?.records.map((r) => r.content) ?? [];
  }

  async createRecord(zone: ProviderZone, record: RecordData): Promise<ProviderRecord> {
    const content = toPdnsContent(record);
    const existing = await this.contentsOf(zone, record.fqdn, record.type);
    if (existing.includes(content))
      throw new ProviderError('conflict', 'This record exists already');
    if (record.type === 'CNAME' && existing.length > 0)
      throw new ProviderError('conflict', 'A name has at most one CNAME record');
    await this.patch(zone, record.fqdn, record.type, record.ttl, [...existing, content]);
    return {
      ...fromPdns(record.fqdn, record.type, record.ttl, content),
      ref: refOf(record.fqdn, record.type, content),
    };
  }

  async updateRecord(zone: ProviderZone, ref: string, record: RecordData): Promise<ProviderRecord> {
    const old = parseRef(ref);
    const content = toPdnsContent(record);
    const oldSet = await this.contentsOf(zone, old.fqdn, old.type);
    if (!oldSet.includes(old.content))
      throw new ProviderError('not_found', 'The record is no longer at PowerDNS');
    if (old.fqdn === record.fqdn && old.type === record.type) {
      const next = oldSet.map((c) => (c === old.content ? content : c));
      await this.patch(zone, record.fqdn, record.type, record.ttl, [...new Set(next)]);
    } else {
      const target = await this.contentsOf(zone, record.fqdn, record.type);
      if (target.includes(content))
        throw new ProviderError('conflict', 'This record exists already');
      await this.patch(zone, record.fqdn, record.type, record.ttl, [...target, content]);
      await this.patch(
        zone,
        old.fqdn,
        old.type,
        record.ttl,
        oldSet.filter((c) => c !== old.content),
      );
    }
    return {
      ...fromPdns(record.fqdn, record.type, record.ttl, content),
      ref: refOf(record.fqdn, record.type, content),
    };
  }

  async deleteRecord(zone: ProviderZone, ref: string): Promise<void> {
    const old = parseRef(ref);
    const sets = await this.rrsets(zone);
    const set = sets.find((s) => undot(s.name) === old.fqdn && s.type === old.type);
    if (!set || !set.records.some((r) => r.content === old.content))
      throw new ProviderError('not_found', 'The record is no longer at PowerDNS');
    await this.patch(
      zone,
      old.fqdn,
      old.type,
      set.ttl,
      set.records.map((r) => r.content).filter((c) => c !== old.content),
    );
  }
}
