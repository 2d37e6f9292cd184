import type { DnsRecordType } from './schemas';
import {
  type DnsProvider,
  type ProviderRecord,
  type ProviderZone,
  type RecordData,
  SUPPORTED_TYPES,
  canonicalIpv6,
} from './serverProvider';
import { ProviderError, providerFetch } from '../../server/http/providerFetch';

export const CLOUDFLARE_API_URL = 'https://api.cloudflare.com/client/v4';

interface Envelope<T> {
  success: boolean;
  errors: { code: number; message: string }[];
  result: T;
  result_info?: { page: number; per_page: number; total_pages: number; total_count: number };
}

interface CfRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority?: number;
  data?: {
    priority?: number;
    weight?: number;
    port?: number;
    target?: string;
    flags?: number;
    tag?: string;
    value?: string;
  };
}

/** Cloudflare API v4 (api.cloudflare.com/client/v4), authenticated by an API token. */
export class CloudflareProvider implements DnsProvider {
  readonly name = 'Cloudflare';

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const res = await providerFetch(this.name, `${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let json: Envelope<T> | undefined;
    try {
      json = (await res.json()) as Envelope<T>;
    } catch {
      json = undefined;
    }
    if (res.ok && json?.success) return json;
    const message =
      json?.errors?.map((e) => `${e.message} (${e.code})`).join('; ') || `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403)
      throw new ProviderError('auth', `Cloudflare refused the API token: ${message}`);
    if (res.status === 404) throw new ProviderError('not_found', `Cloudflare: ${message}`);
    if (res.status === 409) throw new ProviderError('conflict', `Cloudflare: ${message}`);
    if (res.status >= 400 && res.status < 500)
      throw new ProviderError('invalid', `Cloudflare: ${message}`);
    throw new ProviderError('unreachable', `Cloudflare answered ${res.status}: ${message}`);
  }

  /** Every page of a list (`page`, `per_page`, `result_info.total_pages`). */
  private async all<T>(path: string): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page += 1) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await this.call<T[]>('GET', `${path}${sep}page=${page}&per_page=100`);
      out.push(...res.result);
      if (!res.result_info || page >= res.result_info.total_pages || res.result.length === 0)
        return out;
    }
  }

  async verify(): Promise<void> {
    const res = await this.call<{ id: string; status: string }>('GET', '/user/tokens/verify');
    if (res.result.status !== 'active')
      throw new ProviderError('auth', `The Cloudflare API token is ${res.result.status}`);
  }

  async listZones(): Promise<ProviderZone[]> {
    const zones = await this.all<{ id: string; name: string }>('/zones');
    return zones.map((z) => ({ id: z.id, name: z.name }));
  }

  async createZone(name: string): Promise<ProviderZone> {
    // A zone belongs to an account: the token's first one.
    const accounts = await this.call<{ id: string }[]>('GET', '/accounts?page=1&per_page=5');
    const account = accounts.result[0];
    if (!account) throw new ProviderError('invalid', 'The Cloudflare API token reaches no account');
    const res = await this.call<{ id: string; name: string }>('POST', '/zones', {
      name,
      type: 'full',
      account: { id: account.id },
    });
    return { id: res.result.id, name: res.result.name };
  }

  async deleteZone(zone: ProviderZone): Promise<void> {
    await this.call('DELETE', `/zones/${encodeURIComponent(zone.id)}`);
  }

  async listRecords(zone: ProviderZone): Promise<ProviderRecord[]> {
    const records = await this.all<CfRecord>(`/zones/${encodeURIComponent(zone.id)}/dns_records`);
    return records.filter((r) => SUPPORTED_TYPES.has(r.type)).map(fromCloudflare);
  }

  async createRecord(zone: ProviderZone, record: RecordData): Promise<ProviderRecord> {
    const res = await this.call<CfRecord>(
      'POST',
      `/zones/${encodeURIComponent(zone.id)}/dns_records`,
      toCloudflare(record),
    );
    return fromCloudflare(res.result);
  }

  async updateRecord(zone: ProviderZone, ref: string, record: RecordData): Promise<ProviderRecord> {
    const res = await this.call<CfRecord>(
      'PATCH',
      `/zones/${encodeURIComponent(zone.id)}/dns_records/${encodeURIComponent(ref)}`,
      toCloudflare(record),
    );
    return fromCloudflare(res.result);
  }

  async deleteRecord(zone: ProviderZone, ref: string): Promise<void> {
    await this.call(
      'DELETE',
      `/zones/${encodeURIComponent(zone.id)}/dns_records/${encodeURIComponent(ref)}`,
    );
  }
}

/** The record body of POST/PATCH dns_records: SRV and CAA go in `data`. */
export function toCloudflare(r: RecordData): Record<string, unknown> {
  const common = { type: r.type, name: r.fqdn, ttl: r.ttl };
  switch (r.type) {
    case 'AAAA':
      return { ...common, content: canonicalIpv6(r.content) };
    case 'MX':
      return { ...common, content: r.content, priority: r.priority ?? 10 };
    case 'SRV':
      return {
        ...common,
        data: {
          priority: r.priority ?? 10,
          weight: r.weight ?? 5,
          port: r.port ?? 0,
          target: r.content,
        },
      };
    case 'CAA':
      return { ...common, data: { flags: r.flags ?? 0, tag: r.tag ?? 'issue', value: r.content } };
    default:
      return { ...common, content: r.content };
  }
}

export function fromCloudflare(r: CfRecord): ProviderRecord {
  const base: ProviderRecord = {
    ref: r.id,
    type: r.type as DnsRecordType,
    fqdn: r.name,
    ttl: r.ttl,
    content: r.content,
    priority: null,
    weight: null,
    port: null,
    flags: null,
    tag: null,
  };
  if (r.type === 'MX') return { ...base, priority: r.priority ?? 10 };
  if (r.type === 'SRV')
    return {
      ...base,
      priority: r.data?.priority ?? 0,
      weight: r.data?.weight ?? 0,
      port: r.data?.port ?? 0,
      content: r.data?.target ?? r.content,
    };
  if (r.type === 'CAA')
    return {
      ...base,
      flags: r.data?.flags ?? 0,
      tag: r.data?.tag ?? '',
      content: r.data?.value ?? r.content,
    };
  return base;
}
