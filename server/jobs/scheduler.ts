import type { FastifyInstance } from 'fastify';
import { dueSlots, nextSlot } from './cron';
import type { PanelJobQueue } from './queue';
import { newJob } from './queue';
import type { JobRegistry } from './registry';
import type { NewJob } from './types';

/** The longest wait between two ticks: schedules another panel added, a clock a test moved. */
export const TICK_MS = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

interface Slot {
  scheduleId: number;
  slot: string;
  job: NewJob;
}

/**
 * Turns schedules into jobs, on every panel. Each tick reads the enabled schedules, computes
 * with croner the slots due since each one's last slot up to the panel's clock (a bounded
 * catch-up: server/jobs/cron.ts `dueSlots`), and in one transaction inserts a `schedule_slots`
 * row per slot (`ON CONFLICT DO NOTHING`) and enqueues the job of each row that went in, and
 * only those. The primary key (schedule, slot) lets one insert of a slot succeed, whichever
 * panel gets there first, on SQLite and PostgreSQL alike: each slot runs once with any number
 * of panels on one database. The next tick is timed to the next slot, TICK_MS at the latest.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly queue: PanelJobQueue,
    private readonly registry: JobRegistry,
  ) {}

  /** Writes the features' built-in schedules, runs the at-start ones, and starts ticking. */
  async start(): Promise<void> {
    await this.syncBuiltins();
    for (const s of this.registry.schedules.filter((d) => d.atStart))
      await this.queue.enqueue(s.job, s.payload);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    // A tick that failed said so in the log already.
    await this.ticking?.catch(() => undefined);
  }

  /** One tick; never two at once in one panel. */
  private tick(): Promise<void> {
    this.ticking ??= this.tickOnce().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick()
        .catch((err: unknown) => this.app.log.warn({ err }, 'the scheduler tick failed'))
        .finally(() => this.schedule(this.wait));
    }, delay);
    this.timer.unref();
  }

  /** Until the next slot of any schedule, TICK_MS at the most. */
  private wait = TICK_MS;

  private async tickOnce(): Promise<void> {
    const clock = this.app.services.clock;
    const now = clock();
    const schedules = await this.app.db
      .selectFrom('schedules')
      .select(['id', 'name', 'cron', 'timezone', 'job', 'payload', 'last_slot'])
      .where('enabled', '=', 1)
      .execute();
    const due: Slot[] = [];
    let next = now + TICK_MS;
    // Schedules of one expression and zone at the same point (most of a large set) share it.
    const computed = new Map<string, { slots: number[]; upcoming: number | null }>();
    for (const s of schedules) {
      if (!this.registry.has(s.job)) continue; // a job of another panel's version
      const job = this.registry.job(s.job);
      let slots: number[];
      try {
        const key = `${s.cron}\n${s.timezone}\n${s.last_slot}`;
        let found = computed.get(key);
        if (!found) {
          const after = Date.parse(s.last_slot);
          found = {
            slots: dueSlots(s.cron, s.timezone, after, now),
            upcoming: nextSlot(s.cron, s.timezone, Math.max(now, after)),
          };
          computed.set(key, found);
        }
        slots = found.slots;
        if (found.upcoming !== null) next = Math.min(next, found.upcoming);
      } catch (err) {
        this.app.log.warn({ err, schedule: s.name }, 'a schedule cannot be read');
        continue;
      }
      for (const at of slots) {
        let payload: unknown;
        try {
          payload = job.parse(JSON.parse(s.payload));
        } catch (err) {
          this.app.log.warn({ err, schedule: s.name }, 'a schedule payload is refused');
          break;
        }
        const slot = iso(at);
        due.push({
          scheduleId: s.id,
          slot,
          job: newJob(job, payload, { scheduleId: s.id, slot }, {}),
        });
      }
    }
    // Timed from the real clock: the panel's clock runs at the same pace.
    this.wait = Math.max(0, Math.min(TICK_MS, next - clock()));
    if (due.length) await this.take(due);
  }

  /** Inserts the slots and enqueues the jobs of those this panel got, in one transaction. */
  private async take(due: Slot[]): Promise<void> {
    // One order for every panel: two inserting the same slots wait on each other, never deadlock.
    due.sort((a, b) => a.scheduleId - b.scheduleId || (a.slot < b.slot ? -1 : 1));
    const names = new Set<string>();
    await this.app.db.transaction().execute(async (trx) => {
      const taken: Slot[] = [];
      for (let i = 0; i < due.length; i += 500) {
        const chunk = due.slice(i, i + 500);
        const rows = await trx
          .insertInto('schedule_slots')
          .values(chunk.map((d) => ({ schedule_id: d.scheduleId, slot: d.slot })))
          .onConflict((oc) => oc.columns(['schedule_id', 'slot']).doNothing())
          .returning(['schedule_id', 'slot'])
          .execute();
        const got = new Set(rows.map((r) => `${r.schedule_id} ${r.slot}`));
        taken.push(...chunk.filter((d) => got.has(`${d.scheduleId} ${d.slot}`)));
      }
      if (!taken.length) return;
      await this.queue.insert(
        trx,
        taken.map((t) => t.job),
      );
      // Each schedule's last slot moves on; schedules sharing it (most) in one statement.
      const latest = new Map<number, string>();
      for (const t of taken) {
        names.add(t.job.name);
        const prev = latest.get(t.scheduleId);
        if (!prev || prev < t.slot) latest.set(t.scheduleId, t.slot);
      }
      const bySlot = new Map<string, number[]>();
      for (const [id, slot] of latest) {
        const ids = bySlot.get(slot);
        if (ids) ids.push(id);
        else bySlot.set(slot, [id]);
      }
      for (const [slot, ids] of bySlot)
        for (let i = 0; i < ids.length; i += 500)
          await trx
            .updateTable('schedules')
            .set({ last_slot: slot })
            .where('id', 'in', ids.slice(i, i + 500))
            .where('last_slot', '<', slot)
            .execute();
    });
    for (const name of names) this.queue.wake(name);
  }

  /** Keeps the `schedules` rows of the features' declarations in step with the code. */
  private async syncBuiltins(): Promise<void> {
    const now = iso(this.app.services.clock());
    const declared = this.registry.schedules;
    await this.app.db.transaction().execute(async (trx) => {
      for (const d of declared) {
        const values = {
          cron: d.cron,
          timezone: d.timezone ?? 'UTC',
          job: d.job.name,
          payload: JSON.stringify(d.job.parse(d.payload) ?? null),
          builtin: 1,
          updated_at: now,
        };
        await trx
          .insertInto('schedules')
          .values({ name: d.name, ...values, enabled: 1, last_slot: now, created_at: now })
          .onConflict((oc) => oc.column('name').doUpdateSet(values))
          .execute();
      }
      // Built-in schedules the code no longer declares.
      let gone = trx.deleteFrom('schedules').where('builtin', '=', 1);
      if (declared.length)
        gone = gone.where(
          'name',
          'not in',
          declared.map((d) => d.name),
        );
      await gone.execute();
    });
  }
}
