import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InvoiceDocument, renderInvoicePdf } from '../../features/invoice-pdf/serverApi';

/**
 * Invoice PDFs as a reader sees them: the text poppler's pdftotext finds in them (Debian's
 * poppler-utils, which scripts/test.sh installs), and how many pages they have.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-pdf-'));
let made = 0;

async function read(doc: InvoiceDocument): Promise<{ text: string; pages: number }> {
  const bytes = await renderInvoicePdf(doc);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  made += 1;
  const file = path.join(dir, `doc-${made}.pdf`);
  fs.writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  return { text, pages };
}

const base: InvoiceDocument = {
  kind: 'invoice',
  number: '2026-000042',
  refersTo: null,
  status: 'open',
  issuedAt: '2026-11-28T12:00:00.000Z',
  dueAt: '2026-12-12T12:00:00.000Z',
  paidAt: null,
  seller: {
    name: 'Stackdeck GmbH',
    address: ['Hauptstr. 1', '10115 Berlin', 'Germany'],
    taxNumber: 'DE123456789',
    email: 'billing@stackdeck.test',
  },
  buyer: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    address: ['12 St James’s Square', 'London'],
    country: 'GB',
    taxNumber: 'GB987654321',
  },
  currency: 'USD',
  lines: [
    { description: 'Pro plan, December 2026', quantity: 1, unitMinor: 123456, amountMinor: 123456 },
    { description: 'Backup storage, 12 GB-months', quantity: 12, unitMinor: 5, amountMinor: 60 },
  ],
  subtotalMinor: 123516,
  discountMinor: 12352,
  discountLabel: 'SPRING10',
  taxRatePercent: 21,
  taxMinor: 0,
  taxNote: 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 VAT Directive)',
  totalMinor: 111164,
  paymentInstructions: 'Bank transfer to IBAN DE89 3704 0044 0532 0130 00, reference 2026-000042',
};

/** pdftotext -layout keeps a row's cells on one line, with runs of spaces between. */
const row = (text: string, ...cells: string[]) =>
  expect(text).toMatch(
    new RegExp(cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')),
  );

describe('invoice PDF', () => {
  it('shows the seller, the buyer, the number, dates, lines and totals', async () => {
    const { text, pages } = await read(base);
    expect(pages).toBe(1);
    expect(text).toContain('INVOICE');
    row(text, 'Invoice number', '2026-000042');
    row(text, 'Issued', '2026-11-28');
    row(text, 'Due', '2026-12-12');
    for (const s of [
      'Stackdeck GmbH',
      '10115 Berlin',
      'Tax number: DE123456789',
      'billing@stackdeck.test',
    ])
      expect(text).toContain(s);
    for (const s of ['Ada Lovelace', 'ada@example.com', 'Tax number: GB987654321'])
      expect(text).toContain(s);
    row(text, 'Pro plan, December 2026', '1', '1,234.56 USD', '1,234.56 USD');
    row(text, 'Backup storage, 12 GB-months', '12', '0.05 USD', '0.60 USD');
    row(text, 'Subtotal', '1,235.16 USD');
    row(text, 'Discount (SPRING10)', '-123.52 USD');
    row(text, 'Tax (21 %)', '0.00 USD');
    expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
    row(text, 'Total', '1,111.64 USD');
    expect(text).toContain('Payment instructions');
    expect(text).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(text).toContain('Page 1 of 1');
  });

  it('formats amounts by the currency’s exponent: yen have no decimals, dinars three', async () => {
    const yen = await read({
      ...base,
      currency: 'JPY',
      lines: [{ description: 'Pro plan', quantity: 1, unitMinor: 12000, amountMinor: 12000 }],
      subtotalMinor: 12000,
      discountMinor: 0,
      discountLabel: null,
      taxRatePercent: 10,
      taxMinor: 1200,
      taxNote: null,
      totalMinor: 13200,
    });
    row(yen.text, 'Pro plan', '1', '12,000 JPY', '12,000 JPY');
    row(yen.text, 'Tax (10 %)', '1,200 JPY');
    row(yen.text, 'Total', '13,200 JPY');
    expect(yen.text).not.toMatch(/12,000\.00/);
    expect(yen.text).not.toContain('Discount');
    const dinar = await read({ ...base, currency: 'BHD', totalMinor: 1234567 });
    row(dinar.text, 'Total', '1,234.567 BHD');
  });

  it('a credit note says which invoice it credits', async () => {
    const { text } = await read({
      ...base,
      kind: 'credit_note',
      number: 'CN-2026-000003',
      refersTo: '2026-000042',
      status: 'paid',
      paidAt: '2026-11-29T08:00:00.000Z',
      paymentInstructions: null,
    });
    expect(text).toContain('CREDIT NOTE for invoice 2026-000042');
    row(text, 'Credit note number', 'CN-2026-000003');
    row(text, 'Paid', '2026-11-29');
    row(text, 'Total credited', '1,111.64 USD');
    expect(text).not.toContain('Payment instructions');
  });

  it('60 lines run onto more pages, each with the table head and its number', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description: `Server ${String(i + 1).padStart(2, '0')}: hosting for December 2026`,
      quantity: 1,
      unitMinor: 1000,
      amountMinor: 1000,
    }));
    const { text, pages } = await read({
      ...base,
      lines,
      subtotalMinor: 60000,
      discountMinor: 0,
      taxMinor: 12600,
      totalMinor: 72600,
    });
    expect(pages).toBeGreaterThan(1);
    for (let i = 1; i <= 60; i++) expect(text).toContain(`Server ${String(i).padStart(2, '0')}:`);
    const pageTexts = text.split('\f').filter((p) => p.trim());
    expect(pageTexts).toHaveLength(pages);
    for (const page of pageTexts)
      expect(page).toMatch(/Description\s+Qty\s+Unit price\s+Amount|Total/);
    expect(pageTexts[1]).toContain('2026-000042 (continued)');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    row(pageTexts.at(-1)!, 'Total', '726.00 USD');
  });
});
