/**
 * What billing offers the panel's other features (and the lead's wiring after the merge):
 * `settlePayment` for features/payment-methods' 'payment.settled' event, the sweep and renewal
 * of the jobs, and the settings' shape. Nothing else in this folder is meant to be imported.
 */
export { settlePayment } from './serverCharge';
export type { SettledPayment } from './serverCharge';
export type { CollectInput } from './serverCollect';
export { billingSweep, renewSubscription } from './serverJobs';
export { dbManualStore } from './serverManualStore';
export { billingSettings } from './serverSettings';
export type { BillingSettings } from './serverSettings';
export { liveSubscription } from './serverSubscriptions';
