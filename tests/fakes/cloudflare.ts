import { randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A local stand-in for the parts of Cloudflare's API v4 the panel uses, written to the public
 * documentation (developers.cloudflare.com/api): `GET /user/tokens/verify`, `GET /accounts`,
 * zones list/create/delete and dns_records list/create/patch/delete, with `page`/`per_page`
 * pagination (`result_info`) and the `{success:false, errors:[{code,message}]}` error envelope.
 * State lives in memory; every call must carry `Authorization: Bearer <token>`.
 */
export interface FakeCloudflare {
  /** Base URL to give the panel as CLOUDFLARE_API_URL. */
  url: string;
  token: string;
  accountId: string;
  zones: Map<string, FakeZone>;
  /** Calls seen, as `METHOD /path` (paths without the query). */
  calls: string[];
  close(): Promise<void>;
}

interface FakeZone {
  id: string;
  name: string;
  status: string;
  account: { id: string };
  records: Map<string, FakeRecord>;
}

interface FakeRecord {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
  proxied: boolean;
  priority?: number;
  data?: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

const hexId = () => randomBytes(16).toString('hex');
const ok = (result: unknown, result_info?: unknown) => ({
  success: true,
  errors: [],
  messages: [],
  result,
  ...(result_info ? { result_info } : {}),
});

class CfError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function paged<T>(items: T[], query: Record<string, string | undefined>) {
  const page = Math.max(1, Number(query.page ?? 1) || 1);
  const perPage = Math.min(5000, Math.max(5, Number(query.per_page ?? 20) || 20));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return ok(slice, {
    page,
    per_page: perPage,
    count: slice.length,
    total_count: items.length,
    total_pages: Math.max(1, Math.ceil(items.length / perPage)),
  });
}

const HOST = /^([a-z0-9_*]([a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9-]*[a-z0-9])?$/;

/** Checks a record body as Cloudflare does and gives the stored shape. */
function recordFrom(zone: FakeZone, body: Record<string, unknown>, old?: FakeRecord): FakeRecord {
  const type = String(body.type ?? old?.type ?? '');
  let name = String(body.name ?? old?.name ?? '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (name === '@' || name === '') name = zone.name;
  if (name !== zone.name && !name.endsWith(`.${zone.name}`)) name = `${name}.${zone.name}`;
  const ttl = Number(body.ttl ?? old?.ttl ?? 1);
  if (ttl !== 1 && (ttl < 60 || ttl > 86400))
    throw new CfError(
      400,
      9021,
      'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.',
    );
  const data = (body.data ?? old?.data) as Record<string, unknown> | undefined;
  let content = String(body.content ?? old?.content ?? '');
  let priority: number | undefined;
  switch (type) {
    case 'A':
      if (!isIPv4(content))
        throw new CfError(
          400,
          9005,
          'Content for A record is invalid. Must be a valid IPv4 address',
        );
      break;
    case 'AAAA':
      if (!isIPv6(content))
        throw new CfError(
          400,
          9006,
          'Content for AAAA record is invalid. Must be a valid IPv6 address',
        );
      content = new URL(`http://[${content}]/`).hostname.slice(1, -1);
      break;
    case 'CNAME':
    case 'NS':
      if (!HOST.test(content))
        throw new CfError(400, 9007, `Content for ${type} record is invalid.`);
      break;
    case 'MX':
      if (!HOST.test(content)) throw new CfError(400, 9007, 'Content for MX record is invalid.');
      priority = Number(body.priority ?? old?.priority ?? 10);
      break;
    case 'TXT':
      if (content.length === 0) throw new CfError(400, 9009, 'Content for TXT record is invalid.');
      break;
    case 'SRV': {
      if (!data || !HOST.test(String(data.target ?? '')) || data.port === undefined)
        throw new CfError(400, 9101, 'SRV record data is invalid.');
      content = `${Number(data.weight ?? 0)} ${Number(data.port)} ${String(data.target)}`;
      priority = Number(data.priority ?? 0);
      break;
    }
    case 'CAA': {
      if (!data || !['issue', 'issuewild', 'iodef'].includes(String(data.tag)))
        throw new CfError(400, 9102, 'CAA record data is invalid.');
      content = `${Number(data.flags ?? 0)} ${String(data.tag)} "${String(data.value ?? '')}"`;
      break;
    }
    default:
      throw new CfError(400, 9000, `DNS record type "${type}" is invalid.`);
  }
  for (const other of zone.records.values()) {
    if (other.id === old?.id || other.name !== name) continue;
    if (other.type === 'CNAME' || (type === 'CNAME' && other.type !== 'CNAME'))
      throw new CfError(400, 81053, 'An A, AAAA, or CNAME record with that host already exists.');
    if (other.type === type && other.content === content)
      throw new CfError(400, 81058, 'An identical record already exists.');
  }
  const stamp = new Date().toISOString();
  return {
    id: old?.id ?? hexId(),
    zone_id: zone.id,
    zone_name: zone.name,
    name,
    type,
    content,
    ttl,
    proxied: false,
    ...(priority !== undefined ? { priority } : {}),
    ...(type === 'SRV' || type === 'CAA' ? { data } : {}),
    created_on: old?.created_on ?? stamp,
    modified_on: stamp,
  };
}

/** `port`: 0 picks a free one; the UI tests use the fixed one the panel was started with. */
export async function startFakeCloudflare(
  token = randomBytes(20).toString('hex'),
  port = 0,
): Promise<FakeCloudflare> {
  const app = Fastify({ logger: false });
  const accountId = hexId();
  const zones = new Map<string, FakeZone>();
  const calls: string[] = [];

  app.addHook('onRequest', async (req) => {
    calls.push(`${req.method} ${req.url.split('?')[0]}`);
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${token}`) throw new CfError(401, 1000, 'Invalid API Token');
  });
  app.setErrorHandler((error: Error, _req: FastifyRequest, reply: FastifyReply) => {
    const status = error instanceof CfError ? error.status : 400;
    const code = error instanceof CfError ? error.code : 6003;
    return reply.code(status).send({
      success: false,
      errors: [{ code, message: error.message }],
      messages: [],
      result: null,
    });
  });
  const zoneOf = (id: string) => {
    const zone = zones.get(id);
    if (!zone)
      throw new CfError(
        404,
        7003,
        `Could not route to /zones/${id}, perhaps your object identifier is invalid?`,
      );
    return zone;
  };
  const view = (z: FakeZone) => ({
    id: z.id,
    name: z.name,
    status: z.status,
    account: z.account,
    name_servers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'],
  });

  type Q = { Querystring: Record<string, string | undefined> };
  type P = { Params: { zone: string; record: string } };

  app.get('/user/tokens/verify', async () => ok({ id: 'fake-token-id', status: 'active' }));
  app.get<Q>('/accounts', async (req) =>
    paged([{ id: accountId, name: 'Test account' }], req.query),
  );
  app.get<Q>('/zones', async (req) => {
    let list = [...zones.values()];
    if (req.query.name) list = list.filter((z) => z.name === req.query.name);
    return paged(list.sort((a, b) => a.name.localeCompare(b.name)).map(view), req.query);
  });
  app.post<{ Body: { name?: string; account?: { id?: string } } }>('/zones', async (req) => {
    const name = String(req.body?.name ?? '').toLowerCase();
    if (!HOST.test(name) || !name.includes('.')) throw new CfError(400, 1001, 'Invalid zone name');
    if (req.body?.account?.id !== accountId)
      throw new CfError(400, 1002, 'Invalid or missing account');
    if ([...zones.values()].some((z) => z.name === name))
      throw new CfError(400, 1061, `${name} already exists`);
    const zone: FakeZone = {
      id: hexId(),
      name,
      status: 'pending',
      account: { id: accountId },
      records: new Map(),
    };
    zones.set(zone.id, zone);
    return ok(view(zone));
  });
  app.delete<P>('/zones/:zone', async (req) => {
    const zone = zoneOf(req.params.zone);
    zones.delete(zone.id);
    return ok({ id: zone.id });
  });
  app.get<P & Q>('/zones/:zone/dns_records', async (req) => {
    const zone = zoneOf(req.params.zone);
    let list = [...zone.records.values()];
    if (req.query.type) list = list.filter((r) => r.type === req.query.type);
    if (req.query.name) list = list.filter((r) => r.name === req.query.name);
    return paged(list, req.query);
  });
  app.post<P & { Body: Record<string, unknown> }>('/zones/:zone/dns_records', async (req) => {
    const zone = zoneOf(req.params.zone);
    const record = recordFrom(zone, req.body ?? {});
    zone.records.set(record.id, record);
    return ok(record);
  });
  const recordOf = (zone: FakeZone, id: string) => {
    const record = zone.records.get(id);
    if (!record) throw new CfError(404, 81044, 'Record does not exist.');
    return record;
  };
  app.patch<P & { Body: Record<string, unknown> }>(
    '/zones/:zone/dns_records/:record',
    async (req) => {
      const zone = zoneOf(req.params.zone);
      const record = recordFrom(zone, req.body ?? {}, recordOf(zone, req.params.record));
      zone.records.set(record.id, record);
      return ok(record);
    },
  );
  app.delete<P>('/zones/:zone/dns_records/:record', async (req) => {
    const zone = zoneOf(req.params.zone);
    const record = recordOf(zone, req.params.record);
    zone.records.delete(record.id);
    return ok({ id: record.id });
  });

  const address = await app.listen({ host: '127.0.0.1', port });
  return { url: address, token, accountId, zones, calls, close: () => app.close() };
}
