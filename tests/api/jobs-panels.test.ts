import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../server/db/database';
import { createPostgresDatabase, dialect } from './helpers';

/**
 * Two panel processes (server/main.ts, as `npm start` runs it) on one database: PostgreSQL,
 * or the same SQLite file (WAL lets two processes share it). 20 schedules of a real built-in
 * job (jobs.prune, harmless and quick) every minute; the test moves both panels' clocks
 * together (one STACKDECK_TEST_CLOCK file) to just before each of 30 slots in turn, so both
 * panels' ticks fall due at the slot's moment together, and waits for each slot's 20 runs. Every slot has exactly one row in schedule_slots (its primary key) and that
 * row counts the runs the workers started for it: each is 1, whichever panel took the slot.
 */
const SCHEDULES = 20;
// 12 slots, 240 runs: enough two-panel races to see a double run; each slot waits for real ticks.
const SLOTS = 12;
const MINUTE = 60_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-panels-'));
const clockFile = path.join(dataDir, 'clock');
let pgDb: Awaited<ReturnType<typeof createPostgresDatabase>> | null = null;
let db: Db;
const panels: Panel[] = [];

interface Panel {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

async function startPanel(): Promise<Panel> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? '',
      STACKDECK_TEST_CLOCK: clockFile,
      WEB_DIR: '',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'a long admin password 1',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const panel = { child, output: () => text, exited };
  panels.push(panel);
  const started = Date.now();
  while (!text.includes('Stackdeck is running')) {
    if (child.exitCode !== null) throw new Error(`the panel exited: ${text}`);
    if (Date.now() - started > 40_000) throw new Error(`the panel did not start: ${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return panel;
}

/** Both panels' time: the real time plus the offset the file holds. */
const setClockTo = (at: number) => fs.writeFileSync(clockFile, String(at - Date.now()));

beforeAll(async () => {
  if (dialect === 'postgres') pgDb = await createPostgresDatabase();
  db = openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir }).db;
});

afterAll(async () => {
  for (const panel of panels) panel.child.kill('SIGKILL');
  await db.destroy();
  await pgDb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`two panel processes on one ${dialect === 'postgres' ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  it(`run each of ${SLOTS} slots of ${SCHEDULES} schedules exactly once`, async () => {
    // Slot 0 a minute ahead at least.
    const slot0 = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
    setClockTo(slot0 + 500);
    const first = await startPanel();

    const zones = ['UTC', 'Europe/Lisbon', 'Asia/Kolkata', 'America/New_York'];
    const stamp = new Date(slot0).toISOString();
    const rows = await db
      .insertInto('schedules')
      .values(
        Array.from({ length: SCHEDULES }, (_, i) => ({
          name: `two-panels.${i}`,
          cron: '* * * * *',
          timezone: zones[i % zones.length]!,
          job: 'jobs.prune',
          payload: '{}',
          enabled: 1,
          builtin: 0,
          last_slot: stamp,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .returning('id')
      .execute();
    const ids = rows.map((r) => r.id);
    const second = await startPanel();

    const finished = async (slot: string) =>
      (
        await db
          .selectFrom('schedule_slots')
          .select('schedule_id')
          .where('schedule_id', 'in', ids)
          .where('slot', '=', slot)
          .where('finished_at', 'is not', null)
          .execute()
      ).length;
    for (let k = 1; k <= SLOTS; k++) {
      const slot = slot0 + k * MINUTE;
      // A second and a half before the slot: each panel times its next tick to the slot from
      // its own reading of the clock, so both reach for it at the same moment.
      setClockTo(slot - 1500);
      const iso = new Date(slot).toISOString();
      const started = Date.now();
      while ((await finished(iso)) < SCHEDULES) {
        if (Date.now() - started > 20_000)
          throw new Error(`slot ${k}: ${await finished(iso)} of ${SCHEDULES} runs ended`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    const slots = await db
      .selectFrom('schedule_slots')
      .selectAll()
      .where('schedule_id', 'in', ids)
      .orderBy('schedule_id')
      .orderBy('slot')
      .execute();
    expect(slots).toHaveLength(SCHEDULES * SLOTS);
    const expected = ids.flatMap((id) =>
      Array.from({ length: SLOTS }, (_, k) => ({
        schedule_id: id,
        slot: new Date(slot0 + (k + 1) * MINUTE).toISOString(),
        runs: 1,
        error: null,
      })),
    );
    expect(
      slots.map(({ schedule_id, slot, runs, error }) => ({ schedule_id, slot, runs, error })),
    ).toEqual(expected);
    // Both panels lived through it.
    expect(first.child.exitCode).toBeNull();
    expect(second.child.exitCode).toBeNull();
    for (const panel of [first, second]) {
      panel.child.kill('SIGTERM');
      expect(await panel.exited).toBe(0);
    }
    expect(first.output() + second.output()).not.toMatch(/a job failed|tick failed/);
  }, 240_000);
});
