import { describe, expect, it } from 'vitest';
import { withdrawBody } from '../../features/referrals/schemas';
import { attachmentInput, base64Bytes } from '../../resources/tickets';
import { contentDisposition } from '../../server/http/contentDisposition';
import { sameMailbox } from '../../features/referrals/mailboxes';

describe('sameMailbox (self-referral)', () => {
  it.each([
    ['ada@example.com', 'ADA@example.com', true],
    ['ada@example.com', 'ada+promo@example.com', true],
    ['ada.lovelace@gmail.com', 'adalovelace+x@googlemail.com', true],
    ['ada.lovelace@example.com', 'adalovelace@example.com', false],
    ['ada@example.com', 'ada@example.org', false],
    ['ada@example.com', 'bob@example.com', false],
  ])('%s vs %s: %s', (a, b, same) => {
    expect(sameMailbox(a, b)).toBe(same);
  });
});

describe('attachments', () => {
  it('counts decoded bytes without Buffer', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'hello world!']) {
      const b64 = Buffer.from(text).toString('base64');
      expect(base64Bytes(b64)).toBe(text.length);
    }
  });

  it('refuses a name whose extension does not match the type', () => {
    const data = Buffer.from('x').toString('base64');
    expect(attachmentInput.safeParse({ name: 'a.log', type: 'text/plain', data }).success).toBe(
      true,
    );
    expect(attachmentInput.safeParse({ name: 'a.svg', type: 'image/png', data }).success).toBe(
      false,
    );
    expect(attachmentInput.safeParse({ name: 'noext', type: 'text/plain', data }).success).toBe(
      false,
    );
  });

  it('offers a download name without quotes, slashes or line breaks', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    const header = contentDisposition('a"\r\nb/ü.txt');
    expect(header).toMatch(/^attachment; filename="a___b__\.txt"; filename\*=UTF-8''/);
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toContain('%C3%BC');
  });
});

describe('withdrawal amounts', () => {
  const parse = (amount: unknown) =>
    withdrawBody.safeParse({ amount, method: 'paypal', details: 'me@example.com' });
  it.each([10, 10.5, '25.00', 99.99, 1000])('accepts %s', (amount) => {
    expect(parse(amount).success).toBe(true);
  });
  it.each([0, -1, 9.99, 10.001, 'ten', Number.NaN, 2_000_000])('refuses %s', (amount) => {
    expect(parse(amount).success).toBe(false);
  });
});
