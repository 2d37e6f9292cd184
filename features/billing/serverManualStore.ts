/** The manual rail's bank transfers in the panel's database (features/payments' ManualPaymentStore). */
import type { Db } from '../../server/db/database';
import type { ManualPayment, ManualPaymentStore } from '../payments/serverApi';
import type { ManualPaymentsTable } from './serverTables';

const record = (row: ManualPaymentsTable): ManualPayment => ({
  gatewayPaymentId: row.gateway_payment_id,
  invoiceId: row.invoice_id,
  amountMinor: Number(row.amount_minor),
  currency: row.currency,
  status: row.status,
  ...(row.bank_reference !== null && { bankReference: row.bank_reference }),
  ...(row.paid_at !== null && { paidAt: row.paid_at }),
});

export function dbManualStore(db: Db, clock: () => number): ManualPaymentStore {
  const get = async (id: string) => {
    const row = await db
      .selectFrom('manual_payments')
      .selectAll()
      .where('gateway_payment_id', '=', id)
      .executeTakeFirst();
    return row && record(row);
  };
  return {
    get,
    async putIfAbsent(payment) {
      await db
        .insertInto('manual_payments')
        .values({
          gateway_payment_id: payment.gatewayPaymentId,
          invoice_id: payment.invoiceId,
          amount_minor: payment.amountMinor,
          currency: payment.currency,
          status: payment.status,
          bank_reference: payment.bankReference ?? null,
          paid_at: payment.paidAt ?? null,
          created_at: new Date(clock()).toISOString(),
        })
        .onConflict((oc) => oc.column('gateway_payment_id').doNothing())
        .execute();
      const stored = await get(payment.gatewayPaymentId);
      if (!stored) throw new Error(`bank transfer ${payment.gatewayPaymentId} not stored`);
      return stored;
    },
    async update(payment) {
      await db
        .updateTable('manual_payments')
        .set({
          status: payment.status,
          bank_reference: payment.bankReference ?? null,
          paid_at: payment.paidAt ?? null,
        })
        .where('gateway_payment_id', '=', payment.gatewayPaymentId)
        .execute();
    },
  };
}
