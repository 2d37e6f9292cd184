/**
 * What billing offers every program (the pages too): its shapes and pure arithmetic. The
 * panel's side is serverApi.ts.
 */
export { addInterval, prorate, priceFor, taxOf, totalsOf } from './arithmetic';
export type { Proration, ProrationInput } from './arithmetic';
export {
  FREE_PLAN_ID,
  INVOICE_STATUSES,
  SUBSCRIPTION_STATUSES,
  invoiceSchema,
  subscriptionSchema,
} from './schemas';
export type { Invoice, Subscription } from './schemas';
