/**
 * Billing's port to the rails that collect money. The manual rail (bank transfer) is billing's
 * own: features/payments' manual gateway over billing's table. Card and PayPal are collected by
 * features/payment-methods (`collectPayment`, billing contract): the lead points `collectCard`
 * and `cardGateways` at it after the merge; until then they say the rails are not set up.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../server/http/errors';
import { type ManualGateway, type PaymentResult, createManualGateway } from '../payments/serverApi';
import { dbManualStore } from './serverManualStore';
import { billingSettings } from './serverSettings';

/** The billing contract's CollectInput (features/payment-methods' serverApi). */
export interface CollectInput {
  userId: number;
  invoiceId: number;
  amountMinor: number;
  currency: string;
  gateway: 'stripe' | 'paypal';
  offSession: boolean;
  idempotencyKey: string;
  description: string;
}

export const CARD_NOT_SET_UP = 'Card and PayPal payments are not set up on this panel';

/** The card/PayPal rails set up on this panel. */
export function cardGateways(_app: FastifyInstance): Promise<Array<'stripe' | 'paypal'>> {
  return Promise.resolve([]);
}

/** Collects a card or PayPal payment for an invoice (409 until payment methods are wired). */
export function collectCard(_app: FastifyInstance, _input: CollectInput): Promise<PaymentResult> {
  return Promise.reject(new HttpError(409, CARD_NOT_SET_UP));
}

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
