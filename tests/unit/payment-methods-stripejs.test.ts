import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeGateway, type Gateway } from '../../features/payments/serverApi';
import type { StripeJs } from '../../features/payment-methods/stripeJs';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';

/**
 * The Stripe fake's stand-in of Stripe.js (`GET /v3`), run in a DOM as a payment page runs it:
 * the card form mounts, a setup and a payment (3-D Secure included) are confirmed against the
 * fake, and the panel's rail then finds what the browser did.
 */
let fake: FakeStripe;
let gateway: Gateway;
let customerRef: string;

beforeAll(async () => {
  fake = await startFakeStripe();
  gateway = createStripeGateway({
    secretKey: fake.secretKey,
    webhookSecret: fake.webhookSecret,
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  ({ customerRef } = await gateway.createCustomer({
    userId: '1',
    email: 'a@example.com',
    name: 'A',
  }));
});
afterAll(() => fake.close());

/**
 * A page that loaded the script from the fake through the panel's redirect (so the script's
 * element names the panel's address, not the fake's); `confirm()` answers `authenticate`.
 */
async function page(authenticate = true) {
  const dom = new JSDOM('<!doctype html><div id="card"></div>', { runScripts: 'outside-only' });
  const window = dom.window as unknown as Window & {
    eval(code: string): void;
    Stripe: (pk: string) => StripeJs;
  };
  Object.defineProperty(window.document, 'currentScript', {
    value: { src: 'http://panel.invalid/api/v1/payment-methods/stripe.js' },
  });
  Object.assign(window, { fetch, confirm: () => authenticate });
  window.eval(await (await fetch(`${fake.url}/v3`)).text());
  const stripe = window.Stripe(fake.publishableKey);
  const card = stripe.elements().create('card');
  const target = window.document.getElementById('card')!;
  card.mount(target);
  const type = (number: string) => {
    target.querySelector<HTMLInputElement>('input[name="cardnumber"]')!.value = number;
  };
  return { stripe, card, type, target };
}

describe('the Stripe.js stand-in', () => {
  it('mounts a labelled card form', async () => {
    const { target } = await page();
    expect([...target.querySelectorAll('label')].map((l) => l.textContent?.trim())).toEqual([
      'Card number',
      'Expiry',
      'CVC',
    ]);
  });

  it('confirms a SetupIntent; the rail then finds the saved card', async () => {
    const setup = await gateway.createSetup({ customerRef });
    const { stripe, card, type } = await page();
    type('4242 4242 4242 4242');
    const answer = await stripe.confirmCardSetup(setup.clientSecret!, {
      payment_method: { card },
    });
    expect(answer.setupIntent?.status).toBe('succeeded');
    const done = await gateway.completeSetup({ customerRef, setupRef: setup.setupRef });
    expect(done.method).toMatchObject({ brand: 'visa', last4: '4242' });
  });

  it('says so for a number that is not a test card, or a declined one', async () => {
    const setup = await gateway.createSetup({ customerRef });
    const { stripe, card, type } = await page();
    type('1234');
    expect(
      (await stripe.confirmCardSetup(setup.clientSecret!, { payment_method: { card } })).error
        ?.message,
    ).toMatch(/invalid/);
    type('4000000000000002');
    expect(
      (await stripe.confirmCardSetup(setup.clientSecret!, { payment_method: { card } })).error
        ?.message,
    ).toMatch(/declined/);
  });

  it('confirms a payment through 3-D Secure, or reports the failed challenge', async () => {
    for (const pass of [true, false]) {
      const started = await gateway.charge({
        customerRef,
        amountMinor: 900,
        currency: 'EUR',
        invoiceId: '9',
        offSession: false,
        idempotencyKey: `stand-in-${pass}`,
      });
      const { stripe, card, type } = await page(pass);
      type('4000002500003155');
      const answer = await stripe.confirmCardPayment(started.clientSecret!, {
        payment_method: { card },
      });
      if (pass) expect(answer.paymentIntent?.status).toBe('succeeded');
      else expect(answer.error?.message).toMatch(/unable to authenticate/);
      expect((await gateway.retrieve({ gatewayPaymentId: started.gatewayPaymentId })).status).toBe(
        pass ? 'succeeded' : 'failed',
      );
    }
  });
});
