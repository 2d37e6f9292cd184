/**
 * The payments feature's door for the panel's other features (billing core): the rails and
 * their common shape. Nothing else in this folder is meant to be imported from outside.
 */
export * from './gateway';
export { currencyExponent, decimalToMinor, minorToDecimal } from './money';
export { createManualGateway, memoryManualStore } from './serverManualGateway';
export type {
  ManualGateway,
  ManualGatewayConfig,
  ManualPayment,
  ManualPaymentStore,
} from './serverManualGateway';
export { PAYPAL_LIVE_URL, PAYPAL_SANDBOX_URL } from './serverPaypalClient';
export { createPaypalGateway, type PaypalGatewayConfig } from './serverPaypalGateway';
export {
  STRIPE_API_VERSION,
  createStripeGateway,
  type StripeGatewayConfig,
} from './serverStripeGateway';
export { keepRawJsonBodies } from './serverWebhookBody';
