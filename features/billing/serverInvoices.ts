/**
 * Invoices: made as a draft and finalized (numbered, totals and parties fixed) in one
 * transaction; immutable once open: nothing here changes an open invoice but its status
 * (paid, void). Corrections are credit notes. Numbers are gapless per kind and year: the
 * counter row is moved with `UPDATE ... SET next = next + 1 ... RETURNING` in the finalize
 * transaction, so a rolled-back finalize gives its number back and concurrent ones queue on
 * the row (PostgreSQL's row lock; SQLite has one writer).
 */
import { type Transaction, sql } from 'kysely';
import type { Db } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { HttpError } from '../../server/http/errors';
import { percentToBasisPoints, totalsOf } from './arithmetic';
import type { Party } from './schemas';
import type { BillingSettings } from './serverSettings';
import type { BillingInterval, InvoiceKind, InvoicePurpose, InvoiceRow } from './serverTables';

export type Trx = Transaction<Database>;

export interface LineInput {
  description: string;
  quantity: number;
  unitMinor: number;
  amountMinor: number;
}

export interface DraftInput {
  userId: number;
  subscriptionId: number | null;
  kind?: InvoiceKind;
  refersTo?: number | null;
  purpose: InvoicePurpose;
  planId: number | null;
  interval: BillingInterval | null;
  currency: string;
  lines: LineInput[];
  discountMinor?: number;
  discountLabel?: string | null;
  reason?: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  dueAt: string | null;
}

/** A unique key refused the insert: on SQLite and on PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Writes a draft and its lines (no number, totals without tax yet). */
export async function createDraft(trx: Db | Trx, input: DraftInput, at: string): Promise<number> {
  const totals = totalsOf(
    input.lines.map((l) => l.amountMinor),
    input.discountMinor ?? 0,
    null,
  );
  const row = await trx
    .insertInto('invoices')
    .values({
      number: null,
      kind: input.kind ?? 'invoice',
      refers_to: input.refersTo ?? null,
      user_id: input.userId,
      subscription_id: input.subscriptionId,
      purpose: input.purpose,
      plan_id: input.planId,
      interval: input.interval,
      status: 'draft',
      currency: input.currency,
      subtotal_minor: totals.subtotalMinor,
      discount_minor: totals.discountMinor,
      discount_label: totals.discountMinor > 0 ? (input.discountLabel ?? null) : null,
      tax_minor: 0,
      tax_rate_bp: null,
      total_minor: totals.totalMinor,
      buyer: null,
      seller: null,
      reason: input.reason ?? null,
      period_start: input.periodStart,
      period_end: input.periodEnd,
      due_at: input.dueAt,
      paid_at: null,
      voided_at: null,
      finalized_at: null,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.lines.length)
    await trx
      .insertInto('invoice_lines')
      .values(
        input.lines.map((l) => ({
          invoice_id: row.id,
          description: l.description,
          quantity: l.quantity,
          unit_minor: l.unitMinor,
          amount_minor: l.amountMinor,
        })),
      )
      .execute();
  return row.id;
}

/** The buyer as the user's profile says now. */
export async function buyerOf(db: Db | Trx, userId: number): Promise<Party> {
  const u = await db
    .selectFrom('users')
    .select([
      'email',
      'user_name',
      'company_name',
      'addr_1',
      'addr_2',
      'city',
      'state',
      'postal_code',
      'country',
      'tax_num',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const cityLine = [u.postal_code, u.city, u.state].filter(Boolean).join(' ');
  return {
    name: u.company_name || u.user_name,
    email: u.email,
    address: [u.addr_1, u.addr_2, cityLine].filter((s): s is string => Boolean(s)),
    country: u.country ? u.country.toUpperCase() : null,
    taxNumber: u.tax_num || null,
  };
}

/** The rate for a buyer's country (an exact match, else '*'), in basis points; null: none. */
export function taxRateFor(settings: BillingSettings, country: string | null): number | null {
  const exact = country ? settings.taxRates.find((r) => r.country === country) : undefined;
  const rate = exact ?? settings.taxRates.find((r) => r.country === '*');
  return rate && rate.percent > 0 ? percentToBasisPoints(rate.percent) : null;
}

/** The next number of a kind's series for a year, taken in the caller's transaction. */
async function takeNumber(trx: Trx, kind: InvoiceKind, year: number): Promise<string> {
  await trx
    .insertInto('invoice_counters')
    .values({ kind, year, next: 1 })
    .onConflict((oc) => oc.columns(['kind', 'year']).doNothing())
    .execute();
  const row = await trx
    .updateTable('invoice_counters')
    .set({ next: sql<number>`next + 1` })
    .where('kind', '=', kind)
    .where('year', '=', year)
    .returning('next')
    .executeTakeFirstOrThrow();
  const n = String(Number(row.next) - 1).padStart(6, '0');
  return kind === 'credit_note' ? `CN-${year}-${n}` : `${year}-${n}`;
}

/**
 * draft -> open (a credit note: straight to paid, it asks for no payment): the number, the
 * buyer and seller as they are now, the tax by the buyer's country, the totals.
 */
export async function finalizeIn(
  trx: Trx,
  invoiceId: number,
  at: string,
  settings: BillingSettings,
): Promise<InvoiceRow> {
  const row = await trx
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'No such invoice');
  if (row.status !== 'draft')
    throw new HttpError(409, `Invoice ${row.number ?? row.id} is finalized already`);
  const buyer = await buyerOf(trx, row.user_id);
  const lines = await trx
    .selectFrom('invoice_lines')
    .select('amount_minor')
    .where('invoice_id', '=', invoiceId)
    .execute();
  const credit = row.kind === 'credit_note';
  // A credit note gives back an amount as it was paid, tax included.
  const rate = credit ? null : taxRateFor(settings, buyer.country);
  const totals = totalsOf(
    lines.map((l) => Number(l.amount_minor)),
    Number(row.discount_minor),
    rate,
  );
  const number = await takeNumber(trx, row.kind, new Date(at).getUTCFullYear());
  const seller: Party = {
    name: settings.seller.name,
    email: settings.seller.email,
    address: settings.seller.address,
    country: null,
    taxNumber: settings.seller.taxNumber,
  };
  return trx
    .updateTable('invoices')
    .set({
      number,
      status: credit ? 'paid' : 'open',
      subtotal_minor: totals.subtotalMinor,
      discount_minor: totals.discountMinor,
      tax_minor: totals.taxMinor,
      tax_rate_bp: rate,
      total_minor: totals.totalMinor,
      buyer: JSON.stringify(buyer),
      seller: JSON.stringify(seller),
      finalized_at: at,
      paid_at: credit ? at : null,
    })
    .where('id', '=', invoiceId)
    .where('status', '=', 'draft')
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Finalizes a draft in a transaction of its own. */
export function finalizeInvoice(
  db: Db,
  invoiceId: number,
  at: string,
  settings: BillingSettings,
): Promise<InvoiceRow> {
  return db.transaction().execute((trx) => finalizeIn(trx, invoiceId, at, settings));
}

export async function linesOf(db: Db, invoiceId: number) {
  const rows = await db
    .selectFrom('invoice_lines')
    .select(['description', 'quantity', 'unit_minor', 'amount_minor'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    description: r.description,
    quantity: Number(r.quantity),
    unit_minor: Number(r.unit_minor),
    amount_minor: Number(r.amount_minor),
  }));
}

/** What credit notes have given back of an invoice. */
export async function creditedOf(db: Db | Trx, invoiceId: number): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.sum<number | string | null>('total_minor').as('sum'))
    .where('refers_to', '=', invoiceId)
    .where('kind', '=', 'credit_note')
    .executeTakeFirst();
  return Number(row?.sum ?? 0);
}

/** A credit note against a finalized invoice, at most what is left of it. */
export async function issueCreditNote(
  db: Db,
  invoiceId: number,
  input: { amountMinor: number; reason: string },
  at: string,
  settings: BillingSettings,
): Promise<InvoiceRow> {
  return db.transaction().execute(async (trx) => {
    const invoice = await trx
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', invoiceId)
      .executeTakeFirst();
    if (!invoice || invoice.status === 'draft') throw new HttpError(404, 'No such invoice');
    if (invoice.kind !== 'invoice')
      throw new HttpError(409, 'A credit note is issued against an invoice, not a credit note');
    if (invoice.status !== 'paid')
      throw new HttpError(
        409,
        `Invoice ${invoice.number} is ${invoice.status}: only a paid invoice is credited (void an open one)`,
      );
    const left = Number(invoice.total_minor) - (await creditedOf(trx, invoiceId));
    if (input.amountMinor > left)
      throw new HttpError(400, `At most ${left} is left to credit on invoice ${invoice.number}`, {
        amount_minor: `At most ${left} (minor units) is left to credit`,
      });
    const id = await createDraft(
      trx,
      {
        userId: invoice.user_id,
        subscriptionId: null,
        kind: 'credit_note',
        refersTo: invoice.id,
        purpose: 'credit',
        planId: invoice.plan_id,
        interval: invoice.interval,
        currency: invoice.currency,
        lines: [
          {
            description: `Credit on invoice ${invoice.number}: ${input.reason}`,
            quantity: 1,
            unitMinor: input.amountMinor,
            amountMinor: input.amountMinor,
          },
        ],
        reason: input.reason,
        periodStart: null,
        periodEnd: null,
        dueAt: null,
      },
      at,
    );
    return finalizeIn(trx, id, at, settings);
  });
}
