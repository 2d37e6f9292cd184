import PDFDocument from 'pdfkit';
import { minorToDecimal } from '../payments/serverApi';
import type { InvoiceDocument } from './api';

/** A4 in points, with margins that leave room for the footer. */
const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
const CONTENT = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 20;

/** The lines table's columns: description, quantity, unit price, amount (right-aligned). */
const COL = {
  description: { x: PAGE.margin, width: 265 },
  quantity: { x: PAGE.margin + 270, width: 45 },
  unit: { x: PAGE.margin + 320, width: 85 },
  amount: { x: PAGE.margin + 410, width: CONTENT - 410 },
} as const;

const GREY = '#555555';
const RULE = '#cccccc';

/** 123456 USD -> "1,234.56 USD"; 12000 JPY -> "12,000 JPY": the currency's own exponent. */
export function formatAmount(amountMinor: number, currency: string): string {
  const decimal = minorToDecimal(amountMinor, currency);
  const [whole = '', fraction] = decimal.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = decimal.startsWith('-') ? '-' : '';
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`} ${currency}`;
}

/** "2026-11-28T12:00:00Z" -> "2026-11-28" (UTC, as the invoice's number year is). */
const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

const percent = (p: number) => `${Number(p.toFixed(2))} %`;

/** Draws the document into a PDF (A4, the standard Helvetica fonts) and answers its bytes. */
export function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const credit = doc.kind === 'credit_note';
  const title = credit ? 'CREDIT NOTE' : 'INVOICE';
  const pdf = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    info: {
      Title: `${credit ? 'Credit note' : 'Invoice'} ${doc.number}`,
      Author: doc.seller.name || 'Stackdeck',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const money = (minor: number) => formatAmount(minor, doc.currency);

  // Heading: what it is, its number, its dates.
  pdf.font('Helvetica-Bold').fontSize(20).fillColor('black').text(title, PAGE.margin, PAGE.margin);
  if (credit && doc.refersTo)
    pdf.font('Helvetica').fontSize(11).text(`CREDIT NOTE for invoice ${doc.refersTo}`);
  pdf.moveDown(0.5);
  const facts: Array<[string, string]> = [
    [credit ? 'Credit note number' : 'Invoice number', doc.number],
    ['Status', doc.status],
    ['Issued', day(doc.issuedAt)],
  ];
  if (doc.dueAt) facts.push(['Due', day(doc.dueAt)]);
  if (doc.paidAt) facts.push(['Paid', day(doc.paidAt)]);
  pdf.fontSize(10);
  for (const [label, value] of facts) {
    const y = pdf.y;
    pdf.font('Helvetica').fillColor(GREY).text(label, PAGE.margin, y, { width: 120 });
    pdf
      .font('Helvetica-Bold')
      .fillColor('black')
      .text(value, PAGE.margin + 120, y);
  }

  // Seller on the left, buyer on the right, side by side.
  const partiesTop = pdf.y + 20;
  const party = (heading: string, x: number, lines: Array<string | null>, name: string): number => {
    pdf.font('Helvetica').fontSize(9).fillColor(GREY).text(heading, x, partiesTop, { width: 240 });
    pdf
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('black')
      .text(name || '—', x, pdf.y, {
        width: 240,
      });
    pdf.font('Helvetica');
    for (const line of lines) if (line) pdf.text(line, x, pdf.y, { width: 240 });
    return pdf.y;
  };
  const sellerEnd = party(
    'From',
    PAGE.margin,
    [
      ...doc.seller.address,
      doc.seller.taxNumber ? `Tax number: ${doc.seller.taxNumber}` : null,
      doc.seller.email,
    ],
    doc.seller.name,
  );
  const buyerEnd = party(
    'Bill to',
    PAGE.margin + CONTENT / 2 + 10,
    [
      ...doc.buyer.address,
      doc.buyer.country,
      doc.buyer.taxNumber ? `Tax number: ${doc.buyer.taxNumber}` : null,
      doc.buyer.email,
    ],
    doc.buyer.name,
  );

  // The lines, the table's head again on every page they run onto.
  const tableHead = (y: number): number => {
    pdf.font('Helvetica-Bold').fontSize(9).fillColor(GREY);
    pdf.text('Description', COL.description.x, y, { width: COL.description.width });
    pdf.text('Qty', COL.quantity.x, y, { width: COL.quantity.width, align: 'right' });
    pdf.text('Unit price', COL.unit.x, y, { width: COL.unit.width, align: 'right' });
    pdf.text('Amount', COL.amount.x, y, { width: COL.amount.width, align: 'right' });
    const below = y + 14;
    pdf
      .moveTo(PAGE.margin, below)
      .lineTo(PAGE.margin + CONTENT, below)
      .strokeColor(RULE)
      .stroke();
    return below + 6;
  };
  const newPage = (): number => {
    pdf.addPage();
    pdf
      .font('Helvetica')
      .fontSize(9)
      .fillColor(GREY)
      .text(`${title} ${doc.number} (continued)`, PAGE.margin, PAGE.margin);
    return PAGE.margin + 24;
  };
  let y = tableHead(Math.max(sellerEnd, buyerEnd) + 28);
  pdf.font('Helvetica').fontSize(10).fillColor('black');
  for (const line of doc.lines) {
    const height = Math.max(
      pdf.heightOfString(line.description, { width: COL.description.width }),
      12,
    );
    if (y + height > BOTTOM) y = tableHead(newPage());
    pdf.font('Helvetica').fontSize(10).fillColor('black');
    pdf.text(line.description, COL.description.x, y, { width: COL.description.width });
    pdf.text(String(line.quantity), COL.quantity.x, y, {
      width: COL.quantity.width,
      align: 'right',
    });
    pdf.text(money(line.unitMinor), COL.unit.x, y, { width: COL.unit.width, align: 'right' });
    pdf.text(money(line.amountMinor), COL.amount.x, y, {
      width: COL.amount.width,
      align: 'right',
    });
    y += height + 6;
  }
  pdf
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.margin + CONTENT, y)
    .strokeColor(RULE)
    .stroke();
  y += 8;

  // Totals, right-aligned under the amounts; they stay together on one page.
  const totals: Array<{ label: string; value: string; bold?: boolean; note?: string }> = [
    { label: 'Subtotal', value: money(doc.subtotalMinor) },
  ];
  if (doc.discountMinor !== 0)
    totals.push({
      label: doc.discountLabel ? `Discount (${doc.discountLabel})` : 'Discount',
      value: money(-Math.abs(doc.discountMinor)),
    });
  totals.push({
    label: doc.taxRatePercent === null ? 'Tax' : `Tax (${percent(doc.taxRatePercent)})`,
    value: money(doc.taxMinor),
    note: doc.taxNote ?? undefined,
  });
  totals.push({
    label: credit ? 'Total credited' : 'Total',
    value: money(doc.totalMinor),
    bold: true,
  });
  const labelX = PAGE.margin + 230;
  const labelWidth = COL.amount.x - labelX - 5;
  const noteHeight = doc.taxNote ? pdf.heightOfString(doc.taxNote, { width: 260 }) + 4 : 0;
  if (y + totals.length * 18 + noteHeight > BOTTOM) y = newPage();
  for (const row of totals) {
    pdf
      .font(row.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(row.bold ? 12 : 10)
      .fillColor('black');
    pdf.text(row.label, labelX, y, { width: labelWidth, align: 'right' });
    pdf.text(row.value, COL.amount.x - 20, y, { width: COL.amount.width + 20, align: 'right' });
    y += row.bold ? 20 : 16;
    if (row.note) {
      pdf.font('Helvetica-Oblique').fontSize(9).fillColor(GREY);
      pdf.text(row.note, PAGE.margin + CONTENT - 260, y, { width: 260, align: 'right' });
      y = pdf.y + 6;
    }
  }

  // How to pay (bank transfer instructions), when the invoice is still to be paid that way.
  if (doc.paymentInstructions) {
    const text = doc.paymentInstructions;
    const height = pdf.fontSize(10).heightOfString(text, { width: CONTENT }) + 20;
    y += 16;
    if (y + height > BOTTOM) y = newPage();
    pdf
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('black')
      .text('Payment instructions', PAGE.margin, y);
    pdf
      .font('Helvetica')
      .fontSize(10)
      .text(text, PAGE.margin, pdf.y + 2, { width: CONTENT });
  }

  // Every page's footer: what it is and where in it.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // The footer sits in the bottom margin: without this, pdfkit would start a page for it.
    pdf.page.margins.bottom = 0;
    pdf
      .font('Helvetica')
      .fontSize(8)
      .fillColor(GREY)
      .text(
        `${title} ${doc.number} · Page ${i - range.start + 1} of ${range.count}`,
        PAGE.margin,
        PAGE.height - PAGE.margin,
        { width: CONTENT, align: 'center', lineBreak: false },
      );
  }
  pdf.end();
  return done;
}
