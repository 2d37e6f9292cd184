import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSweep } from '../../features/billing/serverApi';
import { build } from '../../server/app';
import { type TestApp, buildTestApp, dialect } from './helpers';

/**
 * Two panels on one database (issue 26: "two panels on one database issue one invoice per
 * period"): a second panel built on the first one's database and data dir (the same SQLite file,
 * or the same PostgreSQL database), both sweeping the same due subscriptions at once. Each
 * subscription gets one renewal invoice and one payment attempt, and the numbers stay gapless.
 * PostgreSQL only: more than one panel runs on PostgreSQL (DESIGN.md "More than one panel"); the
 * embedded SQLite default is one panel process.
 */
const DAY = 86_400_000;
const offset = 0;
const clock = () => Date.now() + offset;

let t: TestApp;
let other: FastifyInstance;
const postgres = dialect === 'postgres';

beforeAll(async () => {
  if (!postgres) return;
  t = await buildTestApp({}, { clock });
  other = await build({ config: t.config, clock });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe.skipIf(!postgres)('renewals with two panels', () => {
  it('issue one invoice per subscription and period, numbered without a gap', async () => {
    const start = new Date(clock() - 31 * DAY).toISOString();
    const end = new Date(clock() - 60_000).toISOString();
    const subscriptions: number[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await t.user({ plan: 3 });
      const row = await t.app.db
        .insertInto('subscriptions')
        .values({
          user_id: user.id,
          plan_id: 3,
          interval: 'month',
          status: 'active',
          pay_type: 'manual',
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
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      subscriptions.push(row.id);
    }
    await Promise.all([
      billingSweep(t.app, { inline: true }),
      billingSweep(other, { inline: true }),
      billingSweep(t.app, { inline: true }),
      billingSweep(other, { inline: true }),
    ]);
    const renewals = await t.app.db
      .selectFrom('invoices')
      .select(['subscription_id', 'number'])
      .where('purpose', '=', 'renewal')
      .where('subscription_id', 'in', subscriptions)
      .execute();
    expect(renewals.map((r) => r.subscription_id).sort((a, b) => a! - b!)).toEqual(subscriptions);
    const numbers = renewals.map((r) => Number(r.number!.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    const attempts = await t.app.db
      .selectFrom('payments')
      .select('idempotency_key')
      .where(
        'user_id',
        'in',
        t.app.db.selectFrom('subscriptions').select('user_id').where('id', 'in', subscriptions),
      )
      .execute();
    expect(attempts).toHaveLength(subscriptions.length);
    expect(attempts.every((a) => a.idempotency_key.endsWith('_att_1'))).toBe(true);
  });
});
