/**
 * The desired firewall of a server, read from the panel's tables, and the one way it reaches
 * the agent: `firewall.apply` with the whole state, one change at a time per server.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Db } from '../../server/db/database';
import type { ServerRow } from '../../server/db/schema';
import { httpErrorOf, runOp } from '../../server/agents/runOp';
import type { HandlerContext } from '../../server/http/handlers';
import { parsePorts } from './ports';
import type { FirewallSettings } from './resource';
import { CC_PART_MAX, type CcRef, type FirewallChange, type FirewallState } from './state';
import { DEFAULT_SETTINGS, type FirewallSettingsTable } from './serverTables';

export type SettingsRow = Selectable<FirewallSettingsTable>;

export const nowIso = () => new Date().toISOString();

/**
 * How long the agent waits for the panel to answer a new connection after loading new rules
 * before it restores the previous ones (20 s; the tests set less).
 */
export function confirmMs(): number {
  const asked = Number(process.env.STACKDECK_FIREWALL_CONFIRM_MS);
  return Number.isInteger(asked) && asked >= 500 && asked <= 120_000 ? asked : 20_000;
}

/** The server's settings row, made with the defaults on first use. */
export async function settingsOf(db: Db, serverId: number): Promise<SettingsRow> {
  const found = await db
    .selectFrom('firewall_settings')
    .selectAll()
    .where('server_id', '=', serverId)
    .executeTakeFirst();
  if (found) return found;
  await db
    .insertInto('firewall_settings')
    .values({ server_id: serverId, ...DEFAULT_SETTINGS })
    .onConflict((oc) => oc.column('server_id').doNothing())
    .execute();
  return db
    .selectFrom('firewall_settings')
    .selectAll()
    .where('server_id', '=', serverId)
    .executeTakeFirstOrThrow();
}

export const settingsRecord = (row: SettingsRow): FirewallSettings => ({
  enabled: Boolean(row.enabled),
  ddos_status: Boolean(row.ddos_status),
  syn_flood_rate: row.syn_flood_rate,
  syn_flood_burst: row.syn_flood_burst,
  conn_limit: row.conn_limit,
  port_flood_hits: row.port_flood_hits,
  port_flood_seconds: row.port_flood_seconds,
  updated_at: row.updated_at,
});

/** Temporary rules whose time is up leave the table (nft has already dropped them). */
export async function dropExpired(db: Db, serverId: number): Promise<void> {
  await db
    .deleteFrom('firewall_temp')
    .where('server_id', '=', serverId)
    .where('expires_at', '<=', nowIso())
    .execute();
}

export async function desiredState(db: Db, serverId: number): Promise<FirewallState> {
  const s = await settingsOf(db, serverId);
  await dropExpired(db, serverId);
  const entries = await db
    .selectFrom('firewall_entries')
    .select(['list', 'ip'])
    .where('server_id', '=', serverId)
    .where('list', 'in', ['csf_allow', 'csf_deny'])
    .orderBy('id')
    .execute();
  const temp = await db
    .selectFrom('firewall_temp')
    .selectAll()
    .where('server_id', '=', serverId)
    .orderBy('id')
    .execute();
  const now = Date.now();
  return {
    enabled: Boolean(s.enabled),
    ddos_status: Boolean(s.ddos_status),
    ddos: {
      syn_flood_rate: s.syn_flood_rate,
      syn_flood_burst: s.syn_flood_burst,
      conn_limit: s.conn_limit,
      port_flood_hits: s.port_flood_hits,
      port_flood_seconds: s.port_flood_seconds,
    },
    tcp_in: parsePorts(s.tcp_in) ?? [],
    udp_in: parsePorts(s.udp_in) ?? [],
    tcp_out: parsePorts(s.tcp_out) ?? [],
    udp_out: parsePorts(s.udp_out) ?? [],
    allow: entries.filter((e) => e.list === 'csf_allow').map((e) => e.ip),
    deny: entries.filter((e) => e.list === 'csf_deny').map((e) => e.ip),
    temp: temp
      .map((t) => ({
        kind: t.kind,
        ip: t.ip,
        port: t.port,
        ttl: Math.ceil((Date.parse(t.expires_at) - now) / 1000),
      }))
      .filter((t) => t.ttl >= 1),
  };
}

/**
 * Changes of one server's firewall run one after the other in this panel: each reads the state
 * its predecessor left, so the file the agent writes never misses a concurrent change.
 */
const queues = new WeakMap<FastifyInstance, Map<number, Promise<unknown>>>();
export function serially<T>(
  app: FastifyInstance,
  serverId: number,
  work: () => Promise<T>,
): Promise<T> {
  let ofApp = queues.get(app);
  if (!ofApp) queues.set(app, (ofApp = new Map()));
  const chains = ofApp;
  const before = chains.get(serverId) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.catch(() => undefined);
  chains.set(serverId, tail);
  void tail.then(() => {
    if (chains.get(serverId) === tail) chains.delete(serverId);
  });
  return mine;
}

/**
 * The denied countries' list, named by what it is made of: the countries and when (and how
 * many of) their ranges were loaded. A load replaces a country's ranges and its time together,
 * so the name changes exactly when the ranges do, and the panel names the list without reading
 * its ranges.
 */
async function countryListKey(db: Db, countries: string[]): Promise<string | null> {
  if (countries.length === 0) return null;
  const loads = await db
    .selectFrom('firewall_country_loads')
    .select(['country', 'ranges', 'loaded_at'])
    .where('country', 'in', countries)
    .orderBy('country')
    .execute();
  if (loads.length === 0) return null;
  const made = loads.map((l) => [l.country, l.ranges, l.loaded_at]);
  return createHash('sha256')
    .update(JSON.stringify(['cc-list', made]))
    .digest('hex');
}

/**
 * The country list an apply names. The ranges are read and sent in parts only when the agent
 * does not hold that list already: a change of the allow or deny list never reads them.
 */
async function stageRanges(
  ctx: HandlerContext<unknown, unknown>,
  server: ServerRow,
  countries: string[],
): Promise<CcRef | null> {
  const { db, agents } = ctx.app;
  const key = await countryListKey(db, countries);
  if (!key) return null;
  try {
    if ((await agents.call(server.id, 'firewall.ccHave', { key })).have) return { key, sent: null };
    const cc = (
      await db
        .selectFrom('firewall_country_ranges')
        .select('range')
        .where('country', 'in', countries)
        .orderBy('id')
        .execute()
    ).map((r) => r.range);
    if (cc.length === 0) return null;
    const parts = Math.ceil(cc.length / CC_PART_MAX);
    for (let part = 0; part < parts; part++) {
      const ranges = cc.slice(part * CC_PART_MAX, (part + 1) * CC_PART_MAX);
      await agents.call(server.id, 'firewall.ccPart', { key, part, ranges });
    }
    const sha256 = createHash('sha256').update(cc.join('\n')).digest('hex');
    return { key, sent: { parts, count: cc.length, sha256 } };
  } catch (error) {
    throw httpErrorOf(error);
  }
}

/** Sends the server's desired state (and the one change, when there is one) to the agent. */
export async function applyState(
  ctx: HandlerContext<unknown, unknown>,
  message: string,
  change: FirewallChange | null = null,
  server: ServerRow = ctx.server,
) {
  const state = await desiredState(ctx.app.db, server.id);
  const { cc_deny } = await settingsOf(ctx.app.db, server.id);
  const countries = cc_deny ? cc_deny.split(',') : [];
  const cc = state.enabled ? await stageRanges(ctx, server, countries) : null;
  return runOp(
    ctx,
    message,
    'firewall.apply',
    { state, cc, confirm_ms: confirmMs(), change },
    server,
  );
}
