import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { build } from '../server/app';
import { loadConfig } from '../server/config';
import { defineJob } from '../server/jobs/define';

export interface SchedulePrecision {
  engine: string;
  schedules: number;
  seconds: number;
  /** Runs whose slot fell in the measured window, and how many slots it held. */
  runs: number;
  expected: number;
  /** Slots that ran more than once (must be 0). */
  repeated: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/**
 * Schedule precision: `schedules` schedules firing every second (`* * * * * *`) on real time,
 * in one panel; the delay of each run is the time from its slot to its handler's start. The
 * first WARM_UP seconds are left out (the schedules are being read in), then `seconds` are
 * measured. A slot a tick left behind is caught up (cron.ts), so a missed slot shows as delay.
 */
export async function schedulePrecision(
  databaseUrl: string | null,
  schedules: number,
  seconds: number,
): Promise<SchedulePrecision> {
  const WARM_UP = 3;
  const delays = new Map<string, number[]>();
  const job = defineJob({
    name: 'bench.slot',
    payload: z.object({ i: z.number() }),
    concurrency: Number(process.env.JOB_CONCURRENCY ?? 50),
    async handler(ctx, { i }) {
      const started = Date.now();
      const key = `${i} ${ctx.slot?.toISOString()}`;
      const list = delays.get(key) ?? [];
      list.push(started - (ctx.slot?.getTime() ?? started));
      delays.set(key, list);
    },
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-schedule-'));
  const config = { ...loadConfig({}), dataDir, databaseUrl, webDir: null };
  const app = await build({ config, jobs: { jobs: [job] } });
  await app.ready();
  try {
    const stamp = new Date().toISOString();
    const rows = Array.from({ length: schedules }, (_, i) => ({
      name: `bench.${i}`,
      cron: '* * * * * *',
      timezone: 'UTC',
      job: job.name,
      payload: JSON.stringify({ i }),
      enabled: 1,
      builtin: 0,
      last_slot: stamp,
      created_at: stamp,
      updated_at: stamp,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await app.db
        .insertInto('schedules')
        .values(rows.slice(i, i + 200))
        .execute();
    const from = Math.ceil(Date.now() / 1000) * 1000 + WARM_UP * 1000;
    const to = from + seconds * 1000; // slots in [from, to)
    // Until the last measured slot's runs had time to start (a late one still counts).
    await new Promise((r) => setTimeout(r, to - Date.now() + 3000));
    await app.db.deleteFrom('schedules').where('name', 'like', 'bench.%').execute();
    const measured: number[] = [];
    let repeated = 0;
    for (const [key, list] of delays) {
      const slot = Date.parse(key.split(' ')[1]!);
      if (slot < from || slot >= to) continue;
      measured.push(...list);
      if (list.length > 1) repeated++;
    }
    measured.sort((a, b) => a - b);
    return {
      engine: app.jobs.engine,
      schedules,
      seconds,
      runs: measured.length,
      expected: schedules * seconds,
      repeated,
      p50Ms: quantile(measured, 0.5),
      p99Ms: quantile(measured, 0.99),
      maxMs: measured.at(-1) ?? NaN,
    };
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh PostgreSQL database for the run, when one answers (TEST_POSTGRES_URL or local). */
export async function benchPostgres(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const { hostname, port } = new URL(adminUrl);
  const up = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
  if (!up) return null;
  const name = `sd_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
