import { describe, expect, it } from 'vitest';
import { GatewayError, WebhookSignatureError } from '../../features/payments/gateway';
import { currencyExponent, decimalToMinor, minorToDecimal } from '../../features/payments/money';
import { createManualGateway } from '../../features/payments/serverManualGateway';

/**
 * The bank-transfer rail of a fresh install (features/payments/serverManualGateway.ts) and the
 * exact conversion between minor units and decimal strings (features/payments/money.ts).
 */

const INSTRUCTIONS = 'Stackdeck Ltd, IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX';

const charge = (
  gateway: ReturnType<typeof createManualGateway>,
  more: { amountMinor?: number; idempotencyKey?: string } = {},
) =>
  gateway.charge({
    customerRef: 'manual_7',
    amountMinor: 1200,
    currency: 'eur',
    invoiceId: 'inv_5',
    offSession: true,
    idempotencyKey: 'inv_5_att_1',
    ...more,
  });

describe('the manual gateway (bank transfer)', () => {
  it('a charge waits for the transfer, with the amount, a reference and the instructions', async () => {
    const gateway = createManualGateway({ instructions: INSTRUCTIONS });
    const result = await charge(gateway);
    expect(result).toEqual({
      status: 'processing',
      gatewayPaymentId: expect.stringMatching(/^BT-[0-9A-F]{12}$/) as string,
      amountMinor: 1200,
      currency: 'EUR',
      message: `Pay 12.00 EUR by bank transfer with the reference ${result.gatewayPaymentId}.\n\n${INSTRUCTIONS}`,
    });
    expect(await gateway.retrieve({ gatewayPaymentId: result.gatewayPaymentId })).toEqual(result);
  });

  it('the same attempt gives the same transfer; the same key for another amount is refused', async () => {
    const gateway = createManualGateway({ instructions: INSTRUCTIONS });
    const first = await charge(gateway);
    expect(await charge(gateway)).toEqual(first);
    expect(await charge(gateway, { amountMinor: 1300 })).toMatchObject({
      status: 'failed',
      errorCode: 'invalid_request',
    });
    expect((await charge(gateway, { idempotencyKey: 'inv_5_att_2' })).gatewayPaymentId).not.toBe(
      first.gatewayPaymentId,
    );
  });

  it("an admin's mark-paid succeeds once; a refund then waits for the admin to pay it back", async () => {
    const gateway = createManualGateway({ instructions: INSTRUCTIONS });
    const { gatewayPaymentId } = await charge(gateway);
    await expect(
      gateway.refund({ gatewayPaymentId, amountMinor: 1200, idempotencyKey: 'r1' }),
    ).rejects.toBeInstanceOf(GatewayError);
    expect(await gateway.markPaid({ gatewayPaymentId, bankReference: 'SEPA-123' })).toMatchObject({
      status: 'succeeded',
    });
    expect(await gateway.complete({ gatewayPaymentId, idempotencyKey: 'x' })).toMatchObject({
      status: 'succeeded',
    });
    await expect(gateway.markPaid({ gatewayPaymentId, bankReference: 'again' })).rejects.toThrow(
      /already succeeded/,
    );
    expect(
      await gateway.refund({ gatewayPaymentId, amountMinor: 1200, idempotencyKey: 'r1' }),
    ).toMatchObject({ status: 'pending' });
  });

  it('a transfer given up on fails; there are no saved methods and no webhooks', async () => {
    const gateway = createManualGateway({ instructions: INSTRUCTIONS });
    const { gatewayPaymentId } = await charge(gateway);
    expect(await gateway.markFailed({ gatewayPaymentId })).toMatchObject({
      status: 'failed',
      errorCode: 'canceled',
    });
    expect(await gateway.listPaymentMethods({ customerRef: 'manual_7' })).toEqual([]);
    await expect(gateway.createSetup({ customerRef: 'manual_7' })).rejects.toThrow(
      'Bank transfer keeps no saved payment methods.',
    );
    await expect(gateway.parseWebhook(Buffer.from('{}'), {})).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(gateway.retrieve({ gatewayPaymentId: 'BT-NOPE' })).rejects.toBeInstanceOf(
      GatewayError,
    );
  });
});

describe('minor units and decimal strings', () => {
  it.each([
    ['USD', 1250, '12.50'],
    ['USD', 5, '0.05'],
    ['USD', 0, '0.00'],
    ['USD', -5, '-0.05'],
    ['JPY', 1250, '1250'],
    ['JPY', 0, '0'],
    ['BHD', 1250, '1.250'],
    ['BHD', 5, '0.005'],
    ['KWD', 1234567, '1234.567'],
    ['eur', 9007199254740991, '90071992547409.91'],
  ])('%s %i <-> "%s"', (currency, minor, decimal) => {
    expect(minorToDecimal(minor, currency)).toBe(decimal);
    expect(decimalToMinor(decimal, currency)).toBe(minor);
  });

  it('reads shorter fractions and leading zeros exactly', () => {
    expect(decimalToMinor('12.5', 'USD')).toBe(1250);
    expect(decimalToMinor('12', 'USD')).toBe(1200);
    expect(decimalToMinor('0.1', 'BHD')).toBe(100);
    expect(decimalToMinor('007.10', 'USD')).toBe(710);
    // 0.1 + 0.2 as floats is 0.30000000000000004: strings never meet a float.
    expect(decimalToMinor('0.3', 'USD')).toBe(30);
    expect(decimalToMinor('19.99', 'USD')).toBe(1999);
  });

  it('refuses more decimals than the currency has, and anything not a plain decimal', () => {
    expect(() => decimalToMinor('1.005', 'USD')).toThrow('1.005 has more decimals than USD allows');
    expect(() => decimalToMinor('1.5', 'JPY')).toThrow(/more decimals than JPY/);
    for (const bad of ['1e3', '12,50', '', '.5', '1.', '+1', 'NaN'])
      expect(() => decimalToMinor(bad, 'USD')).toThrow(RangeError);
    expect(() => minorToDecimal(12.5, 'USD')).toThrow(RangeError);
    expect(() => currencyExponent('US')).toThrow(RangeError);
    expect(currencyExponent('usd')).toBe(2);
  });
});
