import { sql } from 'kysely';
import type { Report } from '../../resources/agent/protocol';
import type { StatSample } from '../../resources/servers';
import type { Db } from '../db/database';
import type { ServerStatsTable } from '../db/schema';

/**
 * The servers' stats history: reports summed into minute samples (kept a day), folded into
 * half-hour samples (kept 30 days), and read back for the charts.
 */
export const MINUTE = 60;
export const HALF_HOUR = 1800;
const DAY = 86_400;
const MONTH = 30 * DAY;

/** A minute's reports of one server, summed (divided by `count` when written). */
export type Sums = Omit<ServerStatsTable, 'server_id' | 'resolution'> & { count: number };

export function startOf(seconds: number, resolution: number) {
  return Math.floor(seconds / resolution) * resolution;
}

/** A minute's empty sums. */
export function emptySums(at: number): Sums {
  return {
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
}

/** Adds one report to its minute's sums. */
export function addReport(sums: Sums, r: Report) {
  sums.count += 1;
  sums.cpu += r.cpu.usage;
  sums.load += r.load[0];
  sums.memory_used += r.memory.used;
  sums.memory_total += r.memory.total;
  sums.disk_used += r.disk.used;
  sums.disk_total += r.disk.total;
  sums.rx_rate += r.network.rx_rate;
  sums.tx_rate += r.network.tx_rate;
}

/** Folds minute samples into half-hour ones, and drops what is past its keeping time. */
export async function downsampleStats(
  db: Db,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<void> {
  // Only whole half-hours that ended: their minute samples will not change any more.
  const until = startOf(nowSeconds, HALF_HOUR);
  await db.transaction().execute(async (trx) => {
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

/** A server's samples of the last day (by the minute) or month (by the half-hour). */
export async function statsHistory(
  db: Db,
  serverId: number,
  range: 'day' | 'month',
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<StatSample[]> {
  const resolution = range === 'day' ? MINUTE : HALF_HOUR;
  const rows = await db
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
