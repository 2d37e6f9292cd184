/**
 * Saved payment methods (spec s.7 Billing `payment-methods/users/{id}`,
 * `default-payment-method/users/{id}`): cards saved at Stripe and PayPal accounts saved in
 * PayPal's Vault, for on-page payments and renewals. The gateways keep the card numbers; the
 * panel keeps what the gateway says to show (brand, last four, expiry, PayPal's address).
 * Webhooks of both gateways and PayPal's return after a payment's approval are public routes.
 */
import { z } from 'zod';
import { type ResourceDef, defineResource } from '../../resources/define';

export const CARD_GATEWAYS = ['stripe', 'paypal'] as const;

export const paymentMethodSchema = z.object({
  id: z.number().int(),
  gateway: z.enum(CARD_GATEWAYS),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
  is_paypal: z.boolean(),
  /** PayPal: the account's address, shown instead of a card number. */
  email: z.string().nullable(),
  is_default: z.boolean(),
  created_at: z.string(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

const gatewayField = z.enum(CARD_GATEWAYS, 'stripe or paypal');

export const startSetupBody = z.object({ gateway: gatewayField });

export const setupStarted = z.object({
  gateway: z.enum(CARD_GATEWAYS),
  /** What the completion call names once the browser finished. */
  setup_ref: z.string(),
  /** Stripe: the SetupIntent's secret, which Stripe.js confirms with the card form. */
  client_secret: z.string().nullable(),
  publishable_key: z.string().nullable(),
  /** PayPal: where the buyer approves saving their account. */
  approve_url: z.string().nullable(),
});

export const completeSetupBody = z.object({
  setup_ref: z
    .string('The setup to finish')
    .trim()
    .regex(/^[A-Za-z0-9_-]{4,255}$/, 'A setup reference as POST payment-methods gave it'),
});

export const methodsList = z.object({
  data: z.array(paymentMethodSchema),
  total: z.number().int(),
  /** The rails set up on this panel (their keys are present). */
  gateways: z.array(z.enum(CARD_GATEWAYS)),
});

export const paymentMethods = defineResource({
  name: 'payment-methods',
  label: 'Payment methods',
  parent: 'account',
  params: { pmId: 'id' },
  idParam: 'pmId',
  missing: 'No such payment method',
  schema: paymentMethodSchema,
  paths: {},
  ops: {},
  actions: {
    list: {
      method: 'GET',
      path: 'payment-methods/users/{uid}',
      guard: 'self',
      summary: "The user's saved cards and PayPal accounts, the default first",
      response: methodsList,
    },
    start: {
      method: 'POST',
      path: 'payment-methods/users/{uid}',
      guard: 'self',
      body: startSetupBody,
      status: 201,
      summary:
        'Start saving a card (a Stripe SetupIntent: its client secret for Stripe.js) or a PayPal account (the approve URL)',
      response: setupStarted,
    },
    complete: {
      method: 'POST',
      path: 'payment-methods/complete/users/{uid}',
      guard: 'self',
      body: completeSetupBody,
      status: 201,
      summary:
        'After Stripe.js confirmed or PayPal returned: the panel asks the gateway and saves the method it names',
      response: paymentMethodSchema,
    },
    remove: {
      method: 'DELETE',
      path: 'payment-methods/{pmId}/users/{uid}',
      guard: 'self',
      summary: 'Remove a saved method at the gateway and here; the default moves to another one',
      response: paymentMethodSchema,
    },
    setDefault: {
      method: 'PATCH',
      path: 'payment-methods/{pmId}/users/{uid}',
      guard: 'self',
      query: z.object({ default: z.literal('true', 'default=true') }),
      summary: 'Make a saved method the default (renewals charge it)',
      response: paymentMethodSchema,
    },
    default: {
      method: 'GET',
      path: 'default-payment-method/users/{uid}',
      guard: 'self',
      summary: "The user's default payment method, or null",
      response: z.object({ data: paymentMethodSchema.nullable() }),
    },
  },
});

const received = z.object({ received: z.boolean(), duplicate: z.boolean() });

/** A gateway's event as JSON; the handler reads it from the raw bytes its signature covers. */
const webhookEvent = z.looseObject({ id: z.string('The event id') });

/**
 * A redirect (302): no body, the Location header says where. Declared as the route's answer
 * without its status, as the document's rules want a 2XX answer on every operation.
 */
const redirect = z.null().describe('Answered as a 302 redirect: no body, see Location');

/** The gateways' calls and the buyer's way back from PayPal: no token, the gateway proves them. */
export const paymentHooks = defineResource({
  name: 'payment-webhooks',
  label: 'Payment webhooks',
  schema: z.object({ id: z.number().int() }),
  paths: {},
  ops: {},
  actions: {
    stripe: {
      method: 'POST',
      path: 'webhooks/stripe',
      guard: 'public',
      rawBody: true,
      body: webhookEvent,
      summary:
        "Stripe's events (Stripe-Signature over the raw body); each once; a trigger: the payment is fetched again",
      response: received,
    },
    paypal: {
      method: 'POST',
      path: 'webhooks/paypal',
      guard: 'public',
      rawBody: true,
      body: webhookEvent,
      summary:
        "PayPal's events (checked by PayPal's verify call); each once; a trigger: the order is fetched again",
      response: received,
    },
    paypalReturn: {
      method: 'GET',
      path: 'paypal/return',
      guard: 'public',
      // Captures the approved order.
      changesState: true,
      query: z.object({
        token: z
          .string()
          .regex(/^[A-Za-z0-9-]{1,64}$/, 'PayPal order id')
          .optional(),
        PayerID: z.string().max(64).optional(),
        cancel: z.string().max(8).optional(),
      }),
      response: redirect,
      summary:
        "Where PayPal's approve page sends the buyer back: the panel captures the order server-side, then sends the buyer on",
    },
    stripeJs: {
      method: 'GET',
      path: 'payment-methods/stripe.js',
      guard: 'public',
      query: z.object({ v: z.literal('3', 'Stripe.js v3 only').default('3') }),
      response: redirect,
      summary: 'Stripe.js: to js.stripe.com, or the stand-in STRIPE_JS_URL names',
    },
  },
});

export const resources = {
  'payment-methods': paymentMethods,
  'payment-webhooks': paymentHooks,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: payment methods live in the panel and at the gateways. */
export const ops = {};
