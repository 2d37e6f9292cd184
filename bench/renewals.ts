/**
 * 10,000 renewals (issue 26): a panel database with 10,000 active subscriptions due, paid by
 * bank transfer (the manual rail); `billing.sweep` is enqueued as its schedule does and the real
 * job engine runs it and the `billing.renew` jobs it enqueues. Measured: the time until the
 * 10,000th renewal invoice exists, renewals per second, and that a second sweep makes none
 * (exactly 10,000 invoices, their numbers gapless). SQLite, and PostgreSQL (pg-boss) when one
 * answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { build } from '../server/app';
import { loadConfig } from '../server/config';
import { billingSweep } from '../features/billing/serverApi';

export interface RenewalsRow {
  engine: string;
  subscriptions: number;
  seconds: number;
  perSecond: number;
  invoices: number;
  secondSweep: number;
  gapless: boolean;
}

export const RENEWALS = Number(process.env.RENEWALS ?? 10_000);
const LIMIT_MS = Number(process.env.RENEWALS_LIMIT_SECONDS ?? 1200) * 1000;

async function measure(databaseUrl: string | null): Promise<RenewalsRow> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-renewals-'));
  const app = await build({ config: { ...loadConfig({}), dataDir, databaseUrl, webDir: null } });
  try {
    await app.ready();
    const now = Date.now();
    const start = new Date(now - 31 * 86_400_000).toISOString();
    const end = new Date(now - 60_000).toISOString();
    await app.db.transaction().execute(async (trx) => {
      for (let first = 0; first < RENEWALS; first += 500) {
        const users = [];
        for (let i = first; i < Math.min(first + 500, RENEWALS); i++)
          users.push({
            uuid: `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            email: `renew-${i}@example.com`,
            user_name: `Renewal ${i}`,
            password_hash: 'x',
            is_admin: 0,
            is_admin_staff: 0,
            plan_id: 3,
            two_factor: 0,
            login_notif: 0,
            confirmed: 1,
            disabled: 0,
            created_at: start,
            updated_at: start,
          });
        const ids = await trx.insertInto('users').values(users).returning('id').execute();
        await trx
          .insertInto('subscriptions')
          .values(
            ids.map(({ id }) => ({
              user_id: id,
              plan_id: 3,
              interval: 'month' as const,
              status: 'active' as const,
              pay_type: 'manual' as const,
              current_period_start: start,
              current_period_end: end,
              cancel_at_period_end: 0,
              canceled_at: null,
              previous_subscription_id: null,
              pending_plan_id: null,
              pending_interval: null,
              pending_invoice_id: null,
              scheduled_plan_id: null,
              scheduled_interval: null,
              coupon_id: null,
              coupon_redemption_id: null,
              coupon_code: null,
              coupon_terms: null,
              coupon_periods_left: null,
              dunning_step: 0,
              created_at: start,
              updated_at: start,
            })),
          )
          .execute();
      }
    });
    await sql`analyze`.execute(app.db);

    const renewals = async () =>
      Number(
        (
          await app.db
            .selectFrom('invoices')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('purpose', '=', 'renewal')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const began = performance.now();
    // What the schedule does every five minutes: one `billing.sweep` job.
    await app.jobs.enqueue('billing.sweep', {}, { key: `bench-sweep-${now}` });
    let made = 0;
    while ((made = await renewals()) < RENEWALS) {
      if (performance.now() - began > LIMIT_MS)
        throw new Error(`${made} of ${RENEWALS} renewals after ${LIMIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - began) / 1000;

    // A second sweep (run here, awaited) finds nothing due; its jobs, if any, would show.
    const second = await billingSweep(app);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const invoices = await renewals();
    const numbers = (
      await app.db.selectFrom('invoices').select('number').where('kind', '=', 'invoice').execute()
    )
      .map((r) => Number(r.number!.split('-')[1]))
      .sort((a, b) => a - b);
    const gapless =
      numbers.length === RENEWALS && numbers.every((n, i) => n === (numbers[0] ?? 1) + i);
    return {
      engine: databaseUrl ? 'postgres' : 'sqlite',
      subscriptions: RENEWALS,
      seconds,
      perSecond: RENEWALS / seconds,
      invoices,
      secondSweep: second.renewals,
      gapless,
    };
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function renewalsBench(postgresUrl: string | null): Promise<RenewalsRow[]> {
  const out = [await measure(null)];
  if (postgresUrl) out.push(await measure(postgresUrl));
  return out;
}
