import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Namespace } from 'socket.io';
import { EVENTS, type Report } from '../../resources/agent/protocol';
import type { StatSample } from '../../resources/servers';
import type { Db } from '../db/database';
import type { Caller } from '../http/caller';
import { prepareBatch } from '../db/prepared';
import type { Sessions } from '../auth/sessions';
import { userRoom } from '../tasks/taskPush';
import { liveRoom, sessionRoom } from './rooms';

/** Rows a flush writes before it gives the event loop back. */
const FLUSH_CHUNK = 500;
type SampleRow = [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
type LatestRow = [string, string, number];
const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

export const MINUTE = 60;
export const HALF_HOUR = 1800;
const DAY = 86_400;
const MONTH = 30 * DAY;

interface Sums {
  at: number;
  count: number;
  cpu: number;
  load: number;
  memory_used: number;
  memory_total: number;
  disk_used: number;
  disk_total: number;
  rx_rate: number;
  tx_rate: number;
}

/** The merged live info a browser receives. */
export interface LiveMessage extends Report {
  uuid: string;
  connected: boolean;
}

function startOf(seconds: number, resolution: number) {
  return Math.floor(seconds / resolution) * resolution;
}

/**
 * The servers' live info: the latest report of each, pushed to the browsers in the server's
 * room, averaged into minute samples (kept a day) and half-hour samples (kept 30 days). Writes
 * are batched: thousands of agents reporting every 5 s cost one transaction every few seconds.
 */
export class LiveStore {
  private readonly latest = new Map<number, Report>();
  private readonly current = new Map<number, Sums>();
  private readonly samples: (Sums & { server_id: number })[] = [];
  private readonly seen = new Map<number, Report>();
  private timers: NodeJS.Timeout[] = [];
  private readonly writeSamples: (rows: readonly SampleRow[]) => Promise<void>;
  private readonly writeLatest: (rows: readonly LatestRow[]) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly browsers: Namespace,
    private readonly log: FastifyBaseLogger,
  ) {
    const raw = db as unknown as Kysely<never>;
    this.writeSamples = prepareBatch<SampleRow>(
      raw,
      db
        .insertInto('server_stats')
        .values({
          server_id: 0,
          resolution: 0,
          at: 0,
          cpu: 0,
          load: 0,
          memory_used: 0,
          memory_total: 0,
          disk_used: 0,
          disk_total: 0,
          rx_rate: 0,
          tx_rate: 0,
        })
        .onConflict((oc) => oc.columns(['server_id', 'resolution', 'at']).doNothing()),
    );
    this.writeLatest = prepareBatch<LatestRow>(
      raw,
      db.updateTable('servers').set({ live_json: '', last_seen_at: '' }).where('id', '=', 0),
    );
  }

  /**
   * Ties each browser socket to the sign-in session of its token: the socket joins that
   * session's room, and revoking the session (logout, password change or reset, a disabled or
   * deleted account) disconnects the room at once, on every panel (through the adapter). A
   * socket that got past the handshake just before its session was revoked finds out here.
   */
  followSessions(sessions: Sessions) {
    sessions.onRevoke((ids) => this.browsers.in(ids.map(sessionRoom)).disconnectSockets(true));
    this.browsers.on('connection', (socket) => {
      const caller = (socket.data as { caller?: Caller } | undefined)?.caller;
      const sessionId = caller?.sessionId;
      if (!caller || !sessionId) return void socket.disconnect(true);
      void (async () => {
        // The user's room too (their tasks' progress, server/tasks/taskPush.ts): joined at
        // once, so no step goes by between the socket's connect and its join.
        await socket.join([sessionRoom(sessionId), userRoom(caller.id)]);
        if (await sessions.isRevoked(sessionId)) socket.disconnect(true);
      })().catch((err: unknown) => {
        this.log.error({ err }, 'live socket session check failed');
        socket.disconnect(true);
      });
    });
  }

  get(serverId: number): Report | undefined {
    return this.latest.get(serverId);
  }

  report(server: { id: number; uuid: string }, report: Report) {
    // A report older than the newest one is stale (it was delayed): it changes nothing.
    const newest = this.latest.get(server.id);
    if (newest && newest.at > report.at) return;
    this.latest.set(server.id, report);
    this.seen.set(server.id, report);
    const message: LiveMessage = { ...report, uuid: server.uuid, connected: true };
    this.browsers.to(liveRoom(server.uuid)).emit(EVENTS.live, message);
    this.accumulate(server.id, report);
  }

  /** The agent left: browsers learn it at once; the last report stays for the offline view. */
  disconnected(server: { id: number; uuid: string }) {
    const last = this.latest.get(server.id);
    this.latest.delete(server.id);
    if (last)
      this.browsers
        .to(liveRoom(server.uuid))
        .emit(EVENTS.live, { ...last, uuid: server.uuid, connected: false });
  }

  /**
   * Browsers following a server that their caller may no longer see (a member removed from a
   * team, a team deleted, a server unshared) leave its room: `stillSees` decides per caller.
   */
  async evict(serverUuid: string, stillSees: (caller: Caller) => Promise<boolean>) {
    const room = liveRoom(serverUuid);
    for (const socket of await this.browsers.in(room).fetchSockets()) {
      const caller = (socket.data as { caller?: Caller } | undefined)?.caller;
      if (!caller || !(await stillSees(caller))) socket.leave(room);
    }
  }

  forget(serverId: number) {
    this.latest.delete(serverId);
    this.current.delete(serverId);
    this.seen.delete(serverId);
  }

  private accumulate(serverId: number, r: Report) {
    const at = startOf(Math.floor(r.at / 1000), MINUTE);
    let sums = this.current.get(serverId);
    if (sums && sums.at !== at) {
      this.samples.push({ ...sums, server_id: serverId });
      sums = undefined;
    }
    sums ??= {
      at,
      count: 0,
      cpu: 0,
      load: 0,
      memory_used: 0,
      memory_total: 0,
      disk_used: 0,
      disk_total: 0,
      rx_rate: 0,
      tx_rate: 0,
    };
    sums.count += 1;
    sums.cpu += r.cpu.usage;
    sums.load += r.load[0];
    sums.memory_used += r.memory.used;
    sums.memory_total += r.memory.total;
    sums.disk_used += r.disk.used;
    sums.disk_total += r.disk.total;
    sums.rx_rate += r.network.rx_rate;
    sums.tx_rate += r.network.tx_rate;
    this.current.set(serverId, sums);
  }

  /**
   * Writes finished minute samples and the latest report of each server that reported, in
   * chunks that give the event loop back in between: thousands of agents must not stall
   * the reports of the others.
   */
  async flush(): Promise<void> {
    const samples = this.samples.splice(0);
    const seen = [...this.seen];
    this.seen.clear();
    for (let i = 0; i < samples.length; i += FLUSH_CHUNK) {
      await this.writeSamples(
        samples.slice(i, i + FLUSH_CHUNK).map((s) => {
          const n = s.count;
          return [
            s.server_id,
            MINUTE,
            s.at,
            s.cpu / n,
            s.load / n,
            s.memory_used / n,
            s.memory_total / n,
            s.disk_used / n,
            s.disk_total / n,
            s.rx_rate / n,
            s.tx_rate / n,
          ] as SampleRow;
        }),
      );
      await yieldToEvents();
    }
    for (let i = 0; i < seen.length; i += FLUSH_CHUNK) {
      await this.writeLatest(
        seen
          .slice(i, i + FLUSH_CHUNK)
          .map(([id, r]) => [JSON.stringify(r), new Date(r.at).toISOString(), id] as LatestRow),
      );
      await yieldToEvents();
    }
  }

  /** Folds minute samples into half-hour ones, and drops what is past its keeping time. */
  async downsample(nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    // Only whole half-hours that ended: their minute samples will not change any more.
    const until = startOf(nowSeconds, HALF_HOUR);
    await this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('server_stats')
        .select([
          'server_id',
          sql<number>`(at / ${HALF_HOUR}) * ${HALF_HOUR}`.as('bucket'),
          (eb) => eb.fn.avg<number>('cpu').as('cpu'),
          (eb) => eb.fn.avg<number>('load').as('load'),
          (eb) => eb.fn.avg<number>('memory_used').as('memory_used'),
          (eb) => eb.fn.avg<number>('memory_total').as('memory_total'),
          (eb) => eb.fn.avg<number>('disk_used').as('disk_used'),
          (eb) => eb.fn.avg<number>('disk_total').as('disk_total'),
          (eb) => eb.fn.avg<number>('rx_rate').as('rx_rate'),
          (eb) => eb.fn.avg<number>('tx_rate').as('tx_rate'),
        ])
        .where('resolution', '=', MINUTE)
        .where('at', '>=', until - DAY)
        .where('at', '<', until)
        .groupBy(['server_id', sql`(at / ${HALF_HOUR}) * ${HALF_HOUR}`])
        .execute();
      for (const row of rows) {
        const values = {
          cpu: Number(row.cpu),
          load: Number(row.load),
          memory_used: Number(row.memory_used),
          memory_total: Number(row.memory_total),
          disk_used: Number(row.disk_used),
          disk_total: Number(row.disk_total),
          rx_rate: Number(row.rx_rate),
          tx_rate: Number(row.tx_rate),
        };
        await trx
          .insertInto('server_stats')
          .values({
            server_id: row.server_id,
            resolution: HALF_HOUR,
            at: Number(row.bucket),
            ...values,
          })
          .onConflict((oc) => oc.columns(['server_id', 'resolution', 'at']).doUpdateSet(values))
          .execute();
      }
      await trx
        .deleteFrom('server_stats')
        .where('resolution', '=', MINUTE)
        .where('at', '<', nowSeconds - DAY)
        .execute();
      await trx
        .deleteFrom('server_stats')
        .where('resolution', '=', HALF_HOUR)
        .where('at', '<', nowSeconds - MONTH)
        .execute();
    });
  }

  async history(
    serverId: number,
    range: 'day' | 'month',
    nowSeconds = Math.floor(Date.now() / 1000),
  ): Promise<StatSample[]> {
    const resolution = range === 'day' ? MINUTE : HALF_HOUR;
    const rows = await this.db
      .selectFrom('server_stats')
      .select([
        'at',
        'cpu',
        'load',
        'memory_used',
        'memory_total',
        'disk_used',
        'disk_total',
        'rx_rate',
        'tx_rate',
      ])
      .where('server_id', '=', serverId)
      .where('resolution', '=', resolution)
      .where('at', '>=', nowSeconds - (range === 'day' ? DAY : MONTH))
      .orderBy('at', 'asc')
      .execute();
    return rows.map((r) => ({ ...r, at: Number(r.at) }));
  }

  start() {
    const every = (ms: number, work: () => Promise<void>, what: string) => {
      const timer = setInterval(
        () => void work().catch((err: unknown) => this.log.error({ err }, what)),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(10_000, () => this.flush(), 'saving live info failed');
    every(10 * 60_000, () => this.downsample(), 'downsampling stats failed');
  }

  async stop() {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.flush();
  }
}
