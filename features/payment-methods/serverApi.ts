/**
 * What payment-methods offers the panel's other features (billing collects invoices with it):
 * they import it from here, never from its other files.
 */
export {
  availableGateways,
  collectPayment,
  defaultMethodOf,
  refundPayment,
  retrievePayment,
  type CollectInput,
} from './serverCollect';
export type { SettledPayment } from './serverSettle';
export { stripePublishableKey } from './serverStripeKey';
