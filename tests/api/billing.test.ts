import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prorate } from '../../features/billing/arithmetic';
import { settlePayment } from '../../features/billing/serverApi';
import { createDraft, finalizeInvoice } from '../../features/billing/serverInvoices';
import { billingSweep, renewSubscription } from '../../features/billing/serverJobs';
import { billingSettings } from '../../features/billing/serverSettings';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Billing (issue 26): subscribe by bank transfer (the plan granted only once an admin marks the
 * invoice paid), gapless numbers, immutable invoices and credit notes, upgrade and downgrade,
 * cancel at the period's end, renewals once per period, dunning, coupons, with the panel's
 * clock moved forward instead of waiting.
 */
const DAY = 86_400_000;
let offset = 0;
const clock = () => Date.now() + offset;
const at = () => new Date(clock()).toISOString();

let t: TestApp;
let admin: TestUser;
const INSTRUCTIONS = 'IBAN DE00 1234 5678 9012 3456 78, Stackdeck Ltd';

beforeAll(async () => {
  t = await buildTestApp({}, { clock });
  admin = await t.user({ admin: true });
  // The tests run billing's sweep themselves when they choose: the panel's own every-five-minutes
  // schedule, due at every move of the clock, would race them.
  await t.app.db
    .updateTable('schedules')
    .set({ enabled: 0 })
    .where('name', '=', 'billing.sweep')
    .execute();
  // The bank details an admin sets on /admin/module-sittings.
  const set = await t.call('PATCH', '/api/v1/admin/module-settings', {
    token: admin.token,
    body: { manual_instructions: INSTRUCTIONS },
  });
  expect(set.statusCode, set.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';
/** The clock offset each user's token was made at: moving the clock expires tokens. */
const signedAt = new WeakMap<TestUser, number>();
async function call(user: TestUser, method: Method, url: string, body?: unknown) {
  if ((signedAt.get(user) ?? 0) !== offset) {
    user.token = await t.login(user.email, user.password);
    signedAt.set(user, offset);
  }
  return t.call(method, `/api/v1/${url}`, { token: user.token, body });
}

const planOf = async (uid: number) =>
  (
    await t.app.db
      .selectFrom('users')
      .select('plan_id')
      .where('id', '=', uid)
      .executeTakeFirstOrThrow()
  ).plan_id;

const subOf = (uid: number) =>
  t.app.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', uid)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

async function subscribe(user: TestUser, plan: number, type = 'monthly', payType = 'manual') {
  const res = await call(
    user,
    'POST',
    `subscription/users/${user.id}?plan_id=${plan}&type=${type}&pay_type=${payType}`,
  );
  return res;
}

async function markPaid(invoiceId: number) {
  const res = await call(admin, 'PATCH', `admin/invoices/${invoiceId}?action=mark-paid`, {
    bank_reference: `BANK-${invoiceId}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A user on `plan` (monthly unless said), paid by transfer and active. */
async function activeOn(plan: number, type = 'monthly') {
  const user = await t.user();
  const res = await subscribe(user, plan, type);
  expect(res.statusCode, res.body).toBe(201);
  await markPaid(res.json().invoice.id);
  return user;
}

describe('subscribing by bank transfer', () => {
  it('makes an incomplete subscription and an open invoice; the plan waits for the payment', async () => {
    const user = await t.user();
    const before = await planOf(user.id);
    const res = await subscribe(user, 3);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.change).toBe('subscribed');
    expect(body.subscription).toMatchObject({
      status: 'incomplete',
      plan_id: 3,
      interval: 'month',
    });
    expect(body.invoice).toMatchObject({
      status: 'open',
      kind: 'invoice',
      total_minor: 900,
      currency: 'USD',
    });
    expect(body.invoice.number).toMatch(/^\d{4}-\d{6}$/);
    expect(body.payment).toMatchObject({
      gateway: 'manual',
      amount_minor: 900,
      status: 'processing',
    });
    expect(body.payment.reference).toMatch(/^BT-/);
    expect(body.payment.instructions).toContain(INSTRUCTIONS);
    expect(await planOf(user.id)).toBe(before);

    const intent = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=3`);
    expect(intent.statusCode, intent.body).toBe(200);
    expect(intent.json()).toMatchObject({
      invoice_id: body.invoice.id,
      reference: body.payment.reference,
    });
    const view = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(view.json()).toMatchObject({
      subscription: { status: 'incomplete' },
      open_invoice: { id: body.invoice.id },
    });
    // The user's own profile (what the header shows) is read through the panel's caller cache.
    const profileBefore = await call(user, 'GET', `users/${user.id}`);
    expect(profileBefore.json().plan_id).not.toBe(3);

    // An admin marks the transfer paid: the same path as a gateway's confirmation.
    const noRef = await call(
      admin,
      'PATCH',
      `admin/invoices/${body.invoice.id}?action=mark-paid`,
      {},
    );
    expect(noRef.statusCode).toBe(400);
    expect(noRef.json().errors.bank_reference).toBeTruthy();
    const paid = await markPaid(body.invoice.id);
    expect(paid).toMatchObject({ status: 'paid' });
    expect(await planOf(user.id)).toBe(3);
    const profileAfter = await call(user, 'GET', `users/${user.id}`);
    expect(profileAfter.json().plan_id).toBe(3);
    const sub = await subOf(user.id);
    expect(sub.status).toBe('active');
    expect(sub.current_period_end).toBe(body.invoice.period_end);

    // Twice changes nothing: the admin's mark is refused, a repeated settlement is a no-op.
    const again = await call(admin, 'PATCH', `admin/invoices/${body.invoice.id}?action=mark-paid`, {
      bank_reference: 'X',
    });
    expect(again.statusCode).toBe(409);
    const attempt = await t.app.db
      .selectFrom('payments')
      .selectAll()
      .where('invoice_id', '=', body.invoice.id)
      .executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({
      status: 'succeeded',
      idempotency_key: `inv_${body.invoice.id}_att_1`,
    });
    const repeat = await settlePayment(t.app, {
      gateway: 'manual',
      gatewayPaymentId: attempt.gateway_payment_id!,
      invoiceId: body.invoice.id,
      result: {
        status: 'succeeded',
        gatewayPaymentId: attempt.gateway_payment_id!,
        amountMinor: 900,
      },
    });
    expect(repeat.paid).toBe(false);
    expect((await subOf(user.id)).updated_at).toBe(sub.updated_at);
  });

  it('refuses card and PayPal until they are set up, in words', async () => {
    const user = await t.user();
    const res = await subscribe(user, 4, 'monthly', 'card');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Card and PayPal payments are not set up on this panel');
    const none = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(none.json().subscription).toBeNull();
    // The pricing page offers only what there is.
    expect(none.json().pay_types).toEqual(['manual']);
  });

  it('puts a user on Free at once, without an invoice', async () => {
    const user = await t.user();
    const res = await subscribe(user, 2);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      change: 'free',
      invoice: null,
      subscription: { status: 'active' },
    });
    expect(await planOf(user.id)).toBe(2);
  });

  it('creates one subscription of five subscribe requests at once; the others are refused in words', async () => {
    const user = await t.user();
    await call(user, 'GET', `subscription/users/${user.id}`); // signs in once, before the race
    const results = await Promise.all(Array.from({ length: 5 }, () => subscribe(user, 3)));
    // A request that starts after another's commit replaces its incomplete subscription (as a
    // second subscribe does): never are two live at once, and one in a race is refused.
    const created = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(created.length, results.map((r) => r.body).join('\n')).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().message).toMatch(/just started on this account/);
    }
    const subs = await t.app.db
      .selectFrom('subscriptions')
      .select(['id', 'status'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(subs).toHaveLength(created.length);
    expect(subs.filter((s) => s.status === 'incomplete')).toEqual([subs.at(-1)]);
    const open = await t.app.db
      .selectFrom('invoices')
      .select('id')
      .where('user_id', '=', user.id)
      .where('status', '=', 'open')
      .execute();
    expect(open).toHaveLength(1);
  });

  it('expires an unpaid new subscription after 23 hours and voids its invoice', async () => {
    const user = await t.user();
    const res = await subscribe(user, 3);
    const invoiceId = res.json().invoice.id;
    offset += 24 * 3_600_000;
    await billingSweep(t.app, { inline: true });
    expect((await subOf(user.id)).status).toBe('incomplete_expired');
    const inv = await call(user, 'GET', `billing-details/${invoiceId}/users/${user.id}`);
    expect(inv.json()).toMatchObject({ status: 'void' });
  });
});

describe('invoices', () => {
  it('numbers 20 concurrent finalizes without a gap or a repeat', async () => {
    const user = await t.user();
    const settings = await billingSettings(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        await createDraft(
          t.app.db,
          {
            userId: user.id,
            subscriptionId: null,
            purpose: 'credit',
            planId: null,
            interval: null,
            currency: 'USD',
            lines: [{ description: `Line ${i}`, quantity: 1, unitMinor: 100, amountMinor: 100 }],
            periodStart: null,
            periodEnd: null,
            dueAt: null,
          },
          at(),
        ),
      );
    const rows = await Promise.all(ids.map((id) => finalizeInvoice(t.app.db, id, at(), settings)));
    const numbers = rows.map((r) => Number(r.number!.split('-')[1])).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(20);
    expect(numbers[19]! - numbers[0]!).toBe(19);
    // Once open, finalizing again is refused: an open invoice does not change.
    await expect(finalizeInvoice(t.app.db, ids[0]!, at(), settings)).rejects.toThrow(
      /finalized already/,
    );
  });

  it('has no way to change an open invoice, and corrects a paid one by a credit note', async () => {
    const user = await activeOn(3);
    const list = await call(user, 'GET', `billing-details/users/${user.id}`);
    expect(list.statusCode).toBe(200);
    const invoice = list.json().data[0];
    expect(invoice).toMatchObject({ status: 'paid', total_minor: 900 });
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(user, method, `billing-details/${invoice.id}/users/${user.id}`, {
        total_minor: 1,
      });
      expect([404, 405]).toContain(res.statusCode);
    }
    const voidPaid = await call(admin, 'PATCH', `admin/invoices/${invoice.id}?action=void`, {});
    expect(voidPaid.statusCode).toBe(409);

    const tooMuch = await call(admin, 'POST', `admin/invoices/${invoice.id}/credit-note`, {
      amount_minor: 901,
      reason: 'Goodwill',
    });
    expect(tooMuch.statusCode).toBe(400);
    const note = await call(admin, 'POST', `admin/invoices/${invoice.id}/credit-note`, {
      amount_minor: 400,
      reason: 'Outage on the 3rd',
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json()).toMatchObject({
      kind: 'credit_note',
      refers_to: invoice.id,
      total_minor: 400,
    });
    expect(note.json().number).toMatch(/^CN-\d{4}-\d{6}$/);
    const detail = await call(user, 'GET', `billing-details/${invoice.id}/users/${user.id}`);
    expect(detail.json()).toMatchObject({ total_minor: 900, credited_minor: 400, status: 'paid' });
    expect(detail.json().lines).toEqual([expect.objectContaining({ amount_minor: 900 })]);

    const revenue = await call(admin, 'GET', `admin/user-revenue-details?uid=${user.id}`);
    expect(revenue.statusCode, revenue.body).toBe(200);
    expect(revenue.json()).toMatchObject({ total_minor: 500, currency: 'USD' });
    expect(revenue.json().entries).toHaveLength(2);
    const subs = await call(admin, 'GET', `admin/user-subscription?uid=${user.id}`);
    expect(subs.json()).toMatchObject({ plan_id: 3, subscription: { status: 'active' } });
    const open = await call(admin, 'GET', `admin/invoices?status=paid&uid=${user.id}`);
    expect(open.json().total).toBe(2);
  });

  it('answers 404 for another account’s invoice', async () => {
    const owner = await activeOn(3);
    const other = await t.user();
    const id = (await call(owner, 'GET', `billing-details/users/${owner.id}`)).json().data[0].id;
    const res = await call(other, 'GET', `billing-details/${id}/users/${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No such invoice');
  });
});

describe('changing plans', () => {
  it('prorates an upgrade, charges it now and switches only once it is paid', async () => {
    const user = await activeOn(3);
    offset += 10 * DAY;
    const sub = await subOf(user.id);
    const res = await subscribe(user, 4);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.change).toBe('upgrade');
    const expected = prorate({
      oldPriceMinor: 900,
      newPriceMinor: 1900,
      periodStart: sub.current_period_start!,
      periodEnd: sub.current_period_end!,
      at: body.invoice.created_at,
      sameInterval: true,
      newInterval: 'month',
    });
    expect(body.invoice.total_minor).toBe(expected.dueMinor);
    expect(expected.dueMinor).toBeGreaterThan(0);
    expect(expected.dueMinor).toBeLessThan(1000);
    expect(await planOf(user.id)).toBe(3);
    expect(body.subscription).toMatchObject({ plan_id: 3, pending_plan_id: 4 });
    await markPaid(body.invoice.id);
    expect(await planOf(user.id)).toBe(4);
    const after = await subOf(user.id);
    expect(after).toMatchObject({
      plan_id: 4,
      pending_plan_id: null,
      current_period_start: sub.current_period_start,
      current_period_end: sub.current_period_end,
    });
  });

  it('downgrades at the end of the period', async () => {
    const user = await activeOn(4);
    const res = await subscribe(user, 3);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ change: 'downgrade', invoice: null });
    expect(res.json().subscription).toMatchObject({ plan_id: 4, scheduled_plan_id: 3 });
    expect(await planOf(user.id)).toBe(4);
    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    const invoice = await renewSubscription(t.app, sub.id);
    expect(invoice).toMatchObject({
      plan_id: 3,
      total_minor: 900,
      period_start: sub.current_period_end,
    });
    expect(await planOf(user.id)).toBe(3);
    expect(await subOf(user.id)).toMatchObject({ plan_id: 3, scheduled_plan_id: null });
  });

  it('cancels at the period’s end; the sweep then ends it and puts the user on Free', async () => {
    const user = await activeOn(3);
    const del = await call(user, 'DELETE', `subscription/users/${user.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(await planOf(user.id)).toBe(3);
    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    await billingSweep(t.app, { inline: true });
    expect(await subOf(user.id)).toMatchObject({ status: 'canceled' });
    expect(await planOf(user.id)).toBe(2);
    const invoices = await call(user, 'GET', `billing-details/users/${user.id}`);
    expect(invoices.json().total).toBe(1);
    // The history stays.
    const view = await call(user, 'GET', `subscription/users/${user.id}`);
    expect(view.json()).toMatchObject({ subscription: null, plan_id: 2 });
    expect(view.json().history[0]).toMatchObject({ id: sub.id, status: 'canceled' });
  });
});

describe('renewals and dunning', () => {
  it('renews a period once, however often and however many at once', async () => {
    const user = await activeOn(3);
    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    const runs = await Promise.all([
      renewSubscription(t.app, sub.id),
      renewSubscription(t.app, sub.id),
      renewSubscription(t.app, sub.id),
    ]);
    await renewSubscription(t.app, sub.id);
    await billingSweep(t.app, { inline: true });
    const renewals = await t.app.db
      .selectFrom('invoices')
      .selectAll()
      .where('subscription_id', '=', sub.id)
      .where('purpose', '=', 'renewal')
      .execute();
    expect(renewals).toHaveLength(1);
    expect(runs.filter(Boolean).every((r) => r!.id === renewals[0]!.id)).toBe(true);
    const attempts = await t.app.db
      .selectFrom('payments')
      .selectAll()
      .where('invoice_id', '=', renewals[0]!.id)
      .execute();
    expect(attempts.map((a) => a.idempotency_key)).toEqual([`inv_${renewals[0]!.id}_att_1`]);
  });

  it('moves an unpaid renewal past due, mails the user, then unpaid after the grace days', async () => {
    const user = await activeOn(3);
    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    const renewal = (await renewSubscription(t.app, sub.id))!;
    expect(renewal.status).toBe('open');
    offset += 1 * DAY + 60_000;
    await billingSweep(t.app, { inline: true });
    expect(await subOf(user.id)).toMatchObject({ status: 'past_due' });
    expect(await planOf(user.id)).toBe(3);
    const mail = await t.lastMail(user.email);
    expect(mail?.subject).toContain('overdue');
    offset += 14 * DAY;
    await billingSweep(t.app, { inline: true });
    expect(await subOf(user.id)).toMatchObject({ status: 'unpaid' });
    expect(await planOf(user.id)).toBe(2);
    // Paying it late brings the plan back.
    await markPaid(renewal.id);
    expect(await subOf(user.id)).toMatchObject({ status: 'active' });
    expect(await planOf(user.id)).toBe(3);
  });
});

describe('coupons', () => {
  async function coupon(body: Record<string, unknown>) {
    const res = await call(admin, 'POST', 'coupon', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { code: string };
  }

  it('refuses in words and discounts the next invoice, not one already issued', async () => {
    const user = await t.user();
    const noSub = await call(user, 'PATCH', `apply-coupon/users/${user.id}?name=NOPE`);
    expect(noSub.statusCode).toBe(409);
    const first = (await subscribe(user, 3)).json();

    const unknown = await call(user, 'PATCH', `apply-coupon/users/${user.id}?name=NOSUCHCODE`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No coupon NOSUCHCODE');
    const proOnly = await coupon({
      code: `PRO${user.id}`,
      kind: 'percent',
      percent_off: 10,
      plan_ids: [4],
    });
    const wrongPlan = await call(
      user,
      'PATCH',
      `apply-coupon/users/${user.id}?name=${proOnly.code}`,
    );
    expect(wrongPlan.statusCode).toBe(400);
    expect(wrongPlan.json().message).toContain('does not apply');
    const usedUp = await coupon({
      code: `ONE${user.id}`,
      kind: 'percent',
      percent_off: 10,
      max_redemptions: 1,
    });
    const someone = await activeOn(3);
    expect(
      (await call(someone, 'PATCH', `apply-coupon/users/${someone.id}?name=${usedUp.code}`))
        .statusCode,
    ).toBe(200);
    const exhausted = await call(
      user,
      'PATCH',
      `apply-coupon/users/${user.id}?name=${usedUp.code}`,
    );
    expect(exhausted.statusCode).toBe(409);

    const good = await coupon({
      code: `HALF${user.id}`,
      kind: 'percent',
      percent_off: 50,
      duration: 'once',
    });
    const applied = await call(
      user,
      'PATCH',
      `apply-coupon/users/${user.id}?name=${good.code.toLowerCase()}`,
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ coupon_code: good.code, coupon_periods_left: 1 });
    const twice = await call(user, 'PATCH', `apply-coupon/users/${user.id}?name=${good.code}`);
    expect(twice.statusCode).toBe(409);

    // The invoice issued before keeps its amount.
    const issued = await call(user, 'GET', `billing-details/${first.invoice.id}/users/${user.id}`);
    expect(issued.json()).toMatchObject({ total_minor: 900, discount_minor: 0 });
    await markPaid(first.invoice.id);
    const view = (await call(user, 'GET', `subscription/users/${user.id}`)).json();
    expect(view.next_invoice).toMatchObject({ amount_minor: 450, discount_minor: 450 });

    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    const renewal = (await renewSubscription(t.app, sub.id))!;
    expect(renewal).toMatchObject({ subtotal_minor: 900, discount_minor: 450, total_minor: 450 });
    expect(await subOf(user.id)).toMatchObject({ coupon_periods_left: 0 });
  });
});

describe('tax, the buyer and the scheduled renewal', () => {
  it('taxes by the buyer’s country and keeps the buyer as they were at finalize', async () => {
    const user = await t.user();
    await t.app.db
      .updateTable('users')
      .set({ country: 'DE', company_name: 'Muster GmbH', tax_num: 'DE123456789', city: 'Berlin' })
      .where('id', '=', user.id)
      .execute();
    const taxes = (tax_rates: Array<{ country: string; percent: number }>) =>
      call(admin, 'PATCH', 'admin/module-settings', { tax_rates });
    expect(
      (
        await taxes([
          { country: 'DE', percent: 19 },
          { country: '*', percent: 0 },
        ])
      ).statusCode,
    ).toBe(200);
    try {
      const res = await subscribe(user, 3);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().invoice).toMatchObject({
        subtotal_minor: 900,
        tax_rate_percent: 19,
        tax_minor: 171,
        total_minor: 1071,
        buyer: { name: 'Muster GmbH', country: 'DE', taxNumber: 'DE123456789' },
      });
      await t.app.db
        .updateTable('users')
        .set({ country: 'FR', company_name: 'Autre SARL' })
        .where('id', '=', user.id)
        .execute();
      const again = await call(
        user,
        'GET',
        `billing-details/${res.json().invoice.id}/users/${user.id}`,
      );
      expect(again.json()).toMatchObject({ total_minor: 1071, buyer: { name: 'Muster GmbH' } });
    } finally {
      await taxes([]);
    }
  });

  it('answers 404 when no invoice waits for the plan asked', async () => {
    const user = await t.user();
    const res = await call(user, 'GET', `subscription/paymentintent/users/${user.id}?pid=4`);
    expect(res.statusCode).toBe(404);
  });

  it('renews through the keyed billing.renew job the sweep enqueues', async () => {
    const user = await activeOn(3);
    const sub = await subOf(user.id);
    offset = Date.parse(sub.current_period_end!) - Date.now() + 60_000;
    await billingSweep(t.app);
    await billingSweep(t.app);
    const started = Date.now();
    const renewals = () =>
      t.app.db
        .selectFrom('invoices')
        .select('id')
        .where('subscription_id', '=', sub.id)
        .where('purpose', '=', 'renewal')
        .execute();
    while ((await renewals()).length === 0) {
      if (Date.now() - started > 15_000) throw new Error('no renewal within 15 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await renewals()).toHaveLength(1);
    // Two sweeps, one job: the idempotency key of the subscription's period.
    const keys = await t.app.db
      .selectFrom('job_keys')
      .selectAll()
      .where('name', '=', 'billing.renew')
      .where('key', '=', `billing.renew:${sub.id}:${sub.current_period_end}`)
      .execute();
    expect(keys).toHaveLength(1);
  });
});

describe('an account with billing history', () => {
  it('can still be deleted: its subscriptions, invoices and payments go with it', async () => {
    const user = await activeOn(3);
    const invoiceId = (await call(user, 'GET', `billing-details/users/${user.id}`)).json().data[0]
      .id;
    const note = await call(admin, 'POST', `admin/invoices/${invoiceId}/credit-note`, {
      amount_minor: 100,
      reason: 'Before leaving',
    });
    expect(note.statusCode).toBe(201);
    const res = await call(user, 'DELETE', `users/${user.id}`, { password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.app.db
      .selectFrom('invoices')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('dunning of a card subscription', () => {
  it('fails the renewal’s charge (no Stripe keys on this panel), then tries again on the dunning days', async () => {
    const user = await t.user();
    const start = new Date(clock() - 31 * DAY).toISOString();
    const end = new Date(clock() - 60_000).toISOString();
    const sub = await t.app.db
      .insertInto('subscriptions')
      .values({
        user_id: user.id,
        plan_id: 3,
        interval: 'month',
        status: 'active',
        pay_type: 'card',
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
    const invoice = (await renewSubscription(t.app, sub.id))!;
    expect(await subOf(user.id)).toMatchObject({ status: 'past_due' });
    expect((await t.lastMail(user.email))?.subject).toBe(
      `Payment failed for invoice ${invoice.number}`,
    );
    const attempts = () =>
      t.app.db
        .selectFrom('payments')
        .select(['idempotency_key', 'status', 'message'])
        .where('invoice_id', '=', invoice.id)
        .orderBy('attempt')
        .execute();
    expect(await attempts()).toEqual([
      {
        idempotency_key: `inv_${invoice.id}_att_1`,
        status: 'failed',
        message:
          'Card payments are not set up on this panel: an administrator adds the Stripe keys first',
      },
    ]);
    offset += 1 * DAY + 60_000;
    await billingSweep(t.app, { inline: true });
    await billingSweep(t.app, { inline: true });
    expect((await attempts()).map((a) => a.idempotency_key)).toEqual([
      `inv_${invoice.id}_att_1`,
      `inv_${invoice.id}_att_2`,
    ]);
    offset += 2 * DAY;
    await billingSweep(t.app, { inline: true });
    expect(await attempts()).toHaveLength(3);
    expect(await subOf(user.id)).toMatchObject({ status: 'past_due', dunning_step: 2 });
  });
});

describe('the trial', () => {
  it('ends after 14 days on Free, with a mail, for accounts still on it only', async () => {
    const onTrial = await t.user();
    const paying = await t.user();
    const staffer = await t.user({ staff: true });
    // Made now on the panel's clock (earlier tests moved it, so the panel's own sweep may have
    // ended their trials already): on Trial from now.
    await t.app.db
      .updateTable('users')
      .set({ created_at: at(), plan_id: 1 })
      .where('id', 'in', [onTrial.id, paying.id, staffer.id])
      .execute();
    expect(await planOf(onTrial.id)).toBe(1);
    const res = await subscribe(paying, 3);
    expect((await markPaid(res.json().invoice.id)).status).toBe('paid');
    offset += 13 * DAY;
    await billingSweep(t.app, { inline: true });
    expect(await planOf(onTrial.id)).toBe(1);
    offset += 1 * DAY + 60_000;
    await billingSweep(t.app, { inline: true });
    expect(await planOf(onTrial.id)).toBe(2);
    expect((await t.lastMail(onTrial.email))?.subject).toBe('Your trial has ended');
    // What the header reads, at once.
    expect((await call(onTrial, 'GET', `users/${onTrial.id}`)).json().plan_id).toBe(2);
    expect(await planOf(paying.id)).toBe(3);
    expect(await planOf(staffer.id)).toBe(1);
  });
});

describe('referrals', () => {
  it('credit the referrer 10 % of each invoice their referred user pays, once', async () => {
    const referrer = await t.user();
    const buyer = await t.user();
    await t.app.db
      .updateTable('users')
      .set({ referrer_id: referrer.id })
      .where('id', '=', buyer.id)
      .execute();
    const res = await subscribe(buyer, 3);
    const invoice = res.json().invoice as { id: number; total_minor: number; number: string };
    await markPaid(invoice.id);
    // The same payment told again (a webhook delivered twice) earns nothing more.
    await settlePayment(t.app, {
      gateway: 'manual',
      gatewayPaymentId: '',
      invoiceId: invoice.id,
      result: { status: 'succeeded', gatewayPaymentId: '' },
    });
    const referral = await call(referrer, 'GET', `referal/users/${referrer.id}`);
    expect(referral.statusCode, referral.body).toBe(200);
    expect(referral.json().earned_cents).toBe(Math.floor(invoice.total_minor / 10));
    // Someone nobody referred earns nobody anything.
    const alone = await t.user();
    const own = await subscribe(alone, 3);
    await markPaid(own.json().invoice.id);
    const again = await call(referrer, 'GET', `referal/users/${referrer.id}`);
    expect(again.json().earned_cents).toBe(Math.floor(invoice.total_minor / 10));
  });
});
