import { defineServerFeature } from '../../server/feature';
import { billingAdminHandlers, billingHandlers, invoiceOfAccount } from './serverHandlers';
import { billingSchedules, renewJob, sweepJob } from './serverJobs';
import { settlePayment } from './serverCharge';
import * as migration from './serverMigration';
import type { InvoiceRow } from './serverTables';

declare module '../../server/http/children' {
  // `ctx.child` of `billing-details/{invoiceId}/users/{uid}`: the invoice, loaded through `{uid}`.
  interface FeatureChildRows {
    billing: InvoiceRow;
  }
}

/** The panel side of billing (issue 26): the system of record for subscriptions and invoices. */
export const server = defineServerFeature({
  handlers: [billingHandlers, billingAdminHandlers],
  accountChildren: { billing: invoiceOfAccount },
  migrations: { '0063_billing': migration },
  jobs: [sweepJob, renewJob],
  schedules: billingSchedules,
  emits: { 'invoice.paid': 'after' },
  on: {
    /**
     * A card or PayPal payment's state as its gateway has it, fetched again after a verified
     * webhook or PayPal's return (features/payment-methods): a paid invoice grants its plan.
     */
    async 'payment.settled'(payment, { app }) {
      await settlePayment(app, payment);
    },
  },
});
