/**
 * Billing's port to the rails that collect money. The manual rail (bank transfer) is billing's
 * own: features/payments' manual gateway over billing's table. Card and PayPal are collected by
 * features/payment-methods, which keeps the customers and saved methods.
 */
import type { FastifyInstance } from 'fastify';
import { type ManualGateway, type PaymentResult, createManualGateway } from '../payments/serverApi';
import {
  type CollectInput,
  availableGateways,
  collectPayment,
  retrievePayment,
  stripePublishableKey,
} from '../payment-methods/serverApi';
import { dbManualStore } from './serverManualStore';
import { billingSettings } from './serverSettings';

export type { CollectInput } from '../payment-methods/serverApi';

export const CARD_NOT_SET_UP = 'Card and PayPal payments are not set up on this panel';

/** The card/PayPal rails set up on this panel (their keys on /admin/api, switched on). */
export const cardGateways = (app: FastifyInstance) => availableGateways(app);

/** Collects a card or PayPal payment for an invoice; a refusal is a failed result, in words. */
export const collectCard = (app: FastifyInstance, input: CollectInput): Promise<PaymentResult> =>
  collectPayment(app, input);

/** The card or PayPal payment as its gateway has it now (after Stripe.js or a timeout). */
export const retrieveCard = (
  app: FastifyInstance,
  gateway: 'stripe' | 'paypal',
  gatewayPaymentId: string,
): Promise<PaymentResult> => retrievePayment(app, gateway, gatewayPaymentId);

/** What Stripe.js is given in the browser, or null when cards are not set up. */
export const stripeKey = (app: FastifyInstance) => stripePublishableKey(app);

/** The manual rail with the admin's instructions and billing's own store of transfers. */
export async function manualGateway(app: FastifyInstance): Promise<ManualGateway> {
  const settings = await billingSettings(app);
  return createManualGateway({
    instructions:
      settings.manualInstructions ||
      'The bank details have not been set yet: contact the panel’s administrator.',
    store: dbManualStore(app.db, app.services.clock),
  });
}
