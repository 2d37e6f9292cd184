import type { Generated, Selectable } from 'kysely';
import type { Flag, Timestamp } from '../../server/db/columns';

export type CardGateway = 'stripe' | 'paypal';

/** The user's customer at a gateway (Stripe `cus_...`; PayPal's Vault customer id). */
export interface GatewayCustomersTable {
  id: Generated<number>;
  user_id: number;
  gateway: CardGateway;
  customer_ref: string;
  created_at: Timestamp;
}

/** A saved card or PayPal account, as the gateway described it when it was saved. */
export interface PaymentMethodsTable {
  id: Generated<number>;
  user_id: number;
  gateway: CardGateway;
  /** The gateway's id: Stripe `pm_...`, PayPal's payment token. */
  ref: string;
  brand: string;
  last4: string;
  exp_month: number | null;
  exp_year: number | null;
  is_paypal: Flag;
  email: string | null;
  is_default: Flag;
  created_at: Timestamp;
}

/** A setup the panel started and the browser has still to finish (Stripe.js, PayPal approval). */
export interface PaymentSetupsTable {
  id: Generated<number>;
  user_id: number;
  gateway: CardGateway;
  setup_ref: string;
  created_at: Timestamp;
}

/** Each verified webhook once: its unique (gateway, event_id) is the deduplication. */
export interface WebhookEventsTable {
  id: Generated<number>;
  gateway: string;
  event_id: string;
  type: string;
  received_at: Timestamp;
  processed_at: Timestamp | null;
}

declare module '../../server/db/schema' {
  interface Database {
    gateway_customers: GatewayCustomersTable;
    payment_methods: PaymentMethodsTable;
    payment_setups: PaymentSetupsTable;
    webhook_events: WebhookEventsTable;
  }
}

export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

/** A payment the panel started at a gateway, with the invoice it pays (for PayPal's return). */
export interface GatewayPaymentsTable {
  id: Generated<number>;
  user_id: number;
  gateway: CardGateway;
  payment_ref: string;
  invoice_id: number;
  created_at: Timestamp;
}

declare module '../../server/db/schema' {
  interface Database {
    gateway_payments: GatewayPaymentsTable;
  }
}
