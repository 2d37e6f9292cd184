import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../server/jobs/define';
import { type TestApp, buildTestApp, dialect } from './helpers';

/**
 * The job platform (server/jobs) on the suite's database: the SQLite table runner, or pg-boss
 * on PostgreSQL. The jobs here are the build's extra jobs (BuildOptions.jobs: tests only).
 * The panel's clock is driven (a schedule's slots pass when the test moves it); retries wait
 * their real backoff, as pg-boss counts it on the database's time.
 */
let offset = 0;
const clock = () => Date.now() + offset;

interface Run {
  name: string;
  payload: { n?: number; schedule?: string; userFound?: boolean };
  attempt: number;
  at: number;
  slot: Date | null;
}
const runs: Run[] = [];
const ranOf = (name: string) => runs.filter((r) => r.name === name);

const recordJob = defineJob({
  name: 'test.record',
  payload: z.object({ n: z.number(), email: z.string().optional() }),
  retry: { limit: 0, backoffSeconds: 1 },
  async handler(ctx, payload) {
    // What the enqueueing transaction wrote is there when the job runs.
    const user = payload.email
      ? await ctx.app.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', payload.email)
          .executeTakeFirst()
      : null;
    runs.push({
      name: 'test.record',
      payload: { ...payload, userFound: user !== undefined && user !== null },
      attempt: ctx.attempt,
      at: Date.now(),
      slot: ctx.slot,
    });
  },
});

const failingJob = defineJob({
  name: 'test.fail',
  payload: z.object({ n: z.number() }),
  retry: { limit: 2, backoffSeconds: 1 },
  async handler(ctx, payload) {
    runs.push({ name: 'test.fail', payload, attempt: ctx.attempt, at: Date.now(), slot: null });
    throw new Error(`boom ${ctx.attempt}`);
  },
});

const tickJob = defineJob({
  name: 'test.tick',
  payload: z.object({ schedule: z.string() }),
  async handler(ctx, payload) {
    runs.push({ name: 'test.tick', payload, attempt: ctx.attempt, at: Date.now(), slot: ctx.slot });
  },
});

const longJob = defineJob({
  name: 'test.long',
  payload: z.object({ userId: z.number(), fail: z.boolean() }),
  retry: { limit: 0, backoffSeconds: 1 },
  task: (p) => ({ userId: p.userId, kind: 'install', name: 'A long test job' }),
  async handler(ctx, payload) {
    await ctx.task?.event('Halfway there', 5);
    if (payload.fail) throw new Error('The second half broke');
    await ctx.task?.event('Done', 10);
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock, jobs: { jobs: [recordJob, failingJob, tickJob, longJob] } });
});
afterAll(async () => {
  await t.close();
});

/** Waits for a condition the panel reaches by itself (bounded: 15 s). */
async function until(check: () => boolean | Promise<boolean>, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 15_000) throw new Error(`waited 15 s for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe(`jobs on ${dialect === 'postgres' ? 'pg-boss' : 'the SQLite table'}`, () => {
  it('uses the engine of the database', () => {
    expect(t.app.jobs.engine).toBe(dialect === 'postgres' ? 'pg-boss' : 'sqlite');
  });

  it("takes the caller's transaction: a rollback leaves no job, a commit runs it after the commit", async () => {
    const { db } = t.app;
    await expect(
      db.transaction().execute(async (trx) => {
        await t.app.jobs.enqueue(recordJob, { n: 1 }, { trx });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');

    const email = 'in-the-transaction@example.com';
    const enqueued = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          uuid: 'c0ffee00-0000-4000-8000-000000000001',
          email,
          user_name: 'Trx',
          password_hash: 'x',
          is_admin: 0,
          is_admin_staff: 0,
          plan_id: 0,
          two_factor: 0,
          login_notif: 0,
          confirmed: 1,
          disabled: 0,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      const job = await t.app.jobs.enqueue(recordJob, { n: 2, email }, { trx });
      // Held open a while: the job must not run before the commit.
      await new Promise((r) => setTimeout(r, 300));
      return job;
    });
    expect(enqueued.enqueued).toBe(true);
    await until(() => ranOf('test.record').length === 1, 'the committed job');
    await until(
      async () => (await t.app.jobs.status(recordJob, enqueued.id!))?.state === 'done',
      'its status',
    );
    // One more job through the same queue, so the rolled-back one would have been seen by now.
    await t.app.jobs.enqueue(recordJob, { n: 3 });
    await until(() => ranOf('test.record').length >= 2, 'the next job');
    expect(ranOf('test.record').map((r) => r.payload)).toEqual([
      { n: 2, email, userFound: true },
      { n: 3, userFound: false },
    ]);
  });

  it('refuses a payload its schema refuses, a job no one declared, a keyed job without key', async () => {
    await expect(
      // By name, the payload is checked when it is enqueued, not when it runs.
      t.app.jobs.enqueue('test.record', { n: 'two' }),
    ).rejects.toThrow();
    await expect(t.app.jobs.enqueue('test.nobody', {})).rejects.toThrow('No job is named');
    // A job that changes a server or charges money comes with its key, or not at all.
    await expect(t.app.jobs.enqueue('ssl.read-back', { serverId: 1 })).rejects.toThrow(
      'ssl.read-back is enqueued with an idempotency key only',
    );
  });

  it('retries a job that throws with backoff, then marks it failed with its error', async () => {
    const job = await t.app.jobs.enqueue(failingJob, { n: 1 });
    await until(
      async () => (await t.app.jobs.status(failingJob, job.id!))?.state === 'failed',
      'the job to fail for good',
    );
    const attempts = ranOf('test.fail');
    expect(attempts.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // Backoff 1 s: the first retry waits 1-2 s, the second 2-4 s (plus up to a poll's second).
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(950);
    expect(gaps[1]).toBeGreaterThanOrEqual(1950);
    expect(await t.app.jobs.status(failingJob, job.id!)).toEqual({
      state: 'failed',
      attempts: 3,
      error: 'boom 3',
    });
  }, 30_000);

  it('runs a job enqueued twice with one idempotency key once, even at the same moment', async () => {
    const before = ranOf('test.record').length;
    const [a, b] = await Promise.all([
      t.app.jobs.enqueue(recordJob, { n: 10 }, { key: 'charge-invoice-7' }),
      t.app.jobs.enqueue(recordJob, { n: 11 }, { key: 'charge-invoice-7' }),
    ]);
    expect([a.enqueued, b.enqueued].sort()).toEqual([false, true]);
    const again = await t.app.jobs.enqueue(recordJob, { n: 12 }, { key: 'charge-invoice-7' });
    expect(again).toEqual({ enqueued: false, id: null, taskId: null });
    // Another key is another job.
    await t.app.jobs.enqueue(recordJob, { n: 13 }, { key: 'charge-invoice-8' });
    await until(() => ranOf('test.record').length >= before + 2, 'the two jobs');
    // A job enqueued after them runs after them (due order): by then a third would have run.
    await t.app.jobs.enqueue(recordJob, { n: 99 });
    await until(() => ranOf('test.record').some((r) => r.payload.n === 99), 'the last job');
    const ran = ranOf('test.record')
      .slice(before)
      .map((r) => r.payload.n)
      .filter((n) => n !== 99)
      .sort();
    expect(ran).toHaveLength(2);
    expect(ran[1]).toBe(13);
    expect([10, 11]).toContain(ran[0]);
  });

  it('a long job is a task: its events, its end, its failure in words', async () => {
    const owner = await t.user();
    const ok = await t.app.jobs.enqueue(longJob, { userId: owner.id, fail: false });
    const broken = await t.app.jobs.enqueue(longJob, { userId: owner.id, fail: true });
    expect(ok.taskId).not.toBeNull();
    const task = async (id: number | null) => {
      const res = await t.call('GET', `/api/v1/clone-events/users/${owner.id}?id=${id}`, {
        token: owner.token,
      });
      return res.json().data[0] as { status: string; events: { event: string; code: number }[] };
    };
    await until(async () => (await task(ok.taskId)).status === 'completed', 'the first task');
    await until(async () => (await task(broken.taskId)).status === 'failed', 'the second task');
    expect((await task(ok.taskId)).events.map((e) => [e.event, e.code])).toEqual([
      ['Halfway there', 5],
      ['Done', 10],
    ]);
    expect((await task(broken.taskId)).events.map((e) => [e.event, e.code])).toEqual([
      ['Halfway there', 5],
      ['The second half broke', 5],
    ]);
  });
});

describe('schedules on the driven clock', () => {
  const minute = 60_000;
  /** Moves the panel's clock to just after `at` (epoch ms). */
  const moveTo = (at: number) => (offset = at + 200 - Date.now());

  it('runs each slot once as the clock passes it, in the time zone, and never twice', async () => {
    // The next five-minute boundary, a minute away at least.
    const start = Math.ceil((clock() + minute) / (5 * minute)) * 5 * minute;
    moveTo(start);
    const id = await t.app.jobs.schedule({
      name: 'test.every-five',
      cron: '*/5 * * * *',
      timezone: 'Asia/Kolkata', // +05:30: its five-minute marks are UTC's too
      job: 'test.tick',
      payload: { schedule: 'every-five' },
    });
    await t.app.jobs.schedule({
      name: 'test.witness',
      cron: '*/5 * * * *',
      job: 'test.tick',
      payload: { schedule: 'witness' },
    });
    const ticks = (of = 'every-five') =>
      ranOf('test.tick').filter((r) => r.payload.schedule === of && r.slot !== null);
    const slotRows = () =>
      t.app.db
        .selectFrom('schedule_slots')
        .selectAll()
        .where('schedule_id', '=', id)
        .orderBy('slot')
        .execute();
    for (let k = 1; k <= 4; k++) {
      moveTo(start + k * 5 * minute);
      await until(
        async () => (await slotRows()).filter((s) => s.finished_at !== null).length === k,
        `slot ${k}`,
      );
    }
    // A panel that was away for a day runs the missed slots once, not 288 times.
    const later = start + 4 * 5 * minute + 86_400_000;
    moveTo(later);
    const laterIso = new Date(later).toISOString();
    await until(
      async () => (await slotRows()).some((s) => s.slot === laterIso && s.finished_at !== null),
      'the caught-up slot',
    );
    const expected = [1, 2, 3, 4].map((k) => start + k * 5 * minute).concat(later);
    expect(ticks().map((r) => r.slot!.getTime())).toEqual(expected);
    expect(ticks().every((r) => r.attempt === 1)).toBe(true);
    expect((await slotRows()).map((s) => [s.slot, s.runs, s.error])).toEqual(
      expected.map((at) => [new Date(at).toISOString(), 1, null]),
    );

    // Unscheduled: no more slots, while the witness's go on in the same ticks.
    await t.app.jobs.unschedule('test.every-five');
    moveTo(later + 5 * minute);
    await until(
      () => ticks('witness').some((r) => r.slot!.getTime() === later + 5 * minute),
      "the witness's slot",
    );
    expect(ticks().map((r) => r.slot!.getTime())).toEqual(expected);
    expect(await slotRows()).toEqual([]);
  }, 60_000);

  it('refuses a bad expression, an unknown zone, job or payload', async () => {
    const base = { name: 'test.bad', job: 'test.tick', payload: { schedule: 'x' } };
    await expect(t.app.jobs.schedule({ ...base, cron: '61 * * * *' })).rejects.toThrow();
    await expect(
      t.app.jobs.schedule({ ...base, cron: '* * * * *', timezone: 'Mars/Olympus' }),
    ).rejects.toThrow('Unknown time zone');
    await expect(
      t.app.jobs.schedule({ ...base, cron: '* * * * *', job: 'test.nobody' }),
    ).rejects.toThrow('No job is named');
    await expect(
      t.app.jobs.schedule({ ...base, cron: '* * * * *', payload: { schedule: 1 } }),
    ).rejects.toThrow();
  });

  it('has the built-in schedules the panel and its features declare', async () => {
    const rows = await t.app.db
      .selectFrom('schedules')
      .select(['name', 'cron', 'job'])
      .where('builtin', '=', 1)
      .orderBy('name')
      .execute();
    expect(rows).toEqual([
      { name: 'alerts.cert-check', cron: '15 6 * * *', job: 'alerts.cert-check' },
      { name: 'alerts.check', cron: '* * * * *', job: 'alerts.check' },
      { name: 'backups.meter-daily', cron: '40 2 * * *', job: 'backups.meter' },
      { name: 'backups.prune', cron: '30 4 * * 0', job: 'backups.prune' },
      { name: 'backups.verify', cron: '30 2 * * *', job: 'backups.verify' },
      { name: 'billing.sweep', cron: '*/5 * * * *', job: 'billing.sweep' },
      { name: 'gitdeploy.sweep', cron: '* * * * *', job: 'gitdeploy.sweep' },
      { name: 'installers.recover', cron: '* * * * *', job: 'installers.recover' },
      { name: 'jobs.prune', cron: '30 3 * * *', job: 'jobs.prune' },
      { name: 'panel.sweep', cron: '* * * * *', job: 'panel.sweep' },
      { name: 'ssl.renewal-check', cron: '45 5 * * *', job: 'ssl.renewal-check' },
    ]);
  });
});
