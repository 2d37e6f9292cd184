import type { FastifyBaseLogger } from 'fastify';
import type { Namespace } from 'socket.io';
import type { Report } from '../../resources/agent/protocol';
import type { StatSample } from '../../resources/servers';
import type { Sessions } from '../auth/sessions';
import type { Db } from '../db/database';
import { prepareBatch } from '../db/prepared';
import type { Caller } from '../http/caller';
import { userRoom } from '../tasks/taskPush';
import { LiveRooms } from './liveRooms';
import {
  MINUTE,
  type Sums,
  addReport,
  downsampleStats,
  emptySums,
  startOf,
  statsHistory,
} from './liveStats';

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
  private readonly rooms: LiveRooms;
  private readonly writeSamples: (rows: readonly SampleRow[]) => Promise<void>;
  private readonly writeLatest: (rows: readonly LatestRow[]) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly browsers: Namespace,
    private readonly log: FastifyBaseLogger,
  ) {
    this.rooms = new LiveRooms(browsers, log);
    this.writeSamples = prepareBatch<SampleRow>(
      db,
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
      db,
      db.updateTable('servers').set({ live_json: '', last_seen_at: '' }).where('id', '=', 0),
    );
  }

  /**
   * Pushes to every browser signed in as the user (their room, on every panel through the
   * adapter): an alert that opened or closed, say.
   */
  toUser(userId: number, event: string, payload: unknown) {
    this.browsers.to(userRoom(userId)).emit(event, payload);
  }

  /** See LiveRooms.followSessions: browser sockets tied to their sign-in session. */
  followSessions(sessions: Sessions) {
    this.rooms.followSessions(sessions);
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
    this.rooms.send({ ...report, uuid: server.uuid, connected: true });
    this.accumulate(server.id, report);
  }

  /** The agent left: browsers learn it at once; the last report stays for the offline view. */
  disconnected(server: { id: number; uuid: string }) {
    const last = this.latest.get(server.id);
    this.latest.delete(server.id);
    if (last) this.rooms.send({ ...last, uuid: server.uuid, connected: false });
  }

  /** See LiveRooms.evict: browsers that may no longer see a server leave its room. */
  evict(serverUuid: string, stillSees: (caller: Caller) => Promise<boolean>) {
    return this.rooms.evict(serverUuid, stillSees);
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
    sums ??= emptySums(at);
    addReport(sums, r);
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

  downsample(nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    return downsampleStats(this.db, nowSeconds);
  }

  history(
    serverId: number,
    range: 'day' | 'month',
    nowSeconds = Math.floor(Date.now() / 1000),
  ): Promise<StatSample[]> {
    return statsHistory(this.db, serverId, range, nowSeconds);
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
