import type { FastifyInstance } from 'fastify';
import { Batcher } from './batcher';
import type { JobMeta } from './types';

interface SlotOf {
  scheduleId: number;
  slot: string;
}

export const slotOf = (meta: JobMeta): SlotOf | null =>
  meta.scheduleId !== undefined && meta.slot !== undefined
    ? { scheduleId: meta.scheduleId, slot: meta.slot }
    : null;

/** Schedules by slot time: the slots of one tick share it, so one statement covers them. */
function bySlot(slots: SlotOf[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const { scheduleId, slot } of slots) {
    const ids = groups.get(slot);
    if (ids) ids.push(scheduleId);
    else groups.set(slot, [scheduleId]);
  }
  return groups;
}

/**
 * The runs of schedule slots, written on the slot's row (schedule_slots): each start counts a
 * run, each end says how it went. Batched: a thousand slots of one second are a few statements.
 */
export class SlotRecord {
  private readonly starts: Batcher<SlotOf>;
  private readonly ends: Batcher<SlotOf & { error: string | null }>;

  constructor(private readonly app: FastifyInstance) {
    this.starts = new Batcher((slots) => this.started(slots));
    this.ends = new Batcher((slots) => this.ended(slots));
  }

  start(meta: JobMeta): Promise<void> {
    const slot = slotOf(meta);
    return slot ? this.starts.add(slot) : Promise.resolve();
  }

  end(meta: JobMeta, error: string | null): Promise<void> {
    const slot = slotOf(meta);
    return slot ? this.ends.add({ ...slot, error }) : Promise.resolve();
  }

  private now = () => new Date(this.app.services.clock()).toISOString();

  private async started(slots: SlotOf[]): Promise<void> {
    const at = this.now();
    for (const [slot, ids] of bySlot(slots))
      await this.app.db
        .updateTable('schedule_slots')
        .set((eb) => ({ runs: eb('runs', '+', 1), started_at: at }))
        .where('slot', '=', slot)
        .where('schedule_id', 'in', ids)
        .execute();
  }

  private async ended(slots: (SlotOf & { error: string | null })[]): Promise<void> {
    const at = this.now();
    const failed = slots.filter((s) => s.error !== null);
    for (const [slot, ids] of bySlot(slots.filter((s) => s.error === null)))
      await this.app.db
        .updateTable('schedule_slots')
        .set({ finished_at: at, error: null })
        .where('slot', '=', slot)
        .where('schedule_id', 'in', ids)
        .execute();
    for (const s of failed)
      await this.app.db
        .updateTable('schedule_slots')
        .set({ finished_at: at, error: s.error })
        .where('slot', '=', s.slot)
        .where('schedule_id', '=', s.scheduleId)
        .execute();
  }
}
