/**
 * An invoice or credit note as a PDF (`.../pdf`): the finalized row's own snapshot (seller,
 * buyer, lines, totals) drawn by features/invoice-pdf, so a PDF made a year later says what the
 * invoice said when it was issued. The bank details are today's, and only on an open invoice.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../../server/http/errors';
import { type InvoiceDocument, renderInvoicePdf } from '../invoice-pdf/serverApi';
import { linesOf } from './serverInvoices';
import { invoiceRecord } from './serverRecords';
import { billingSettings } from './serverSettings';
import type { InvoiceRow } from './serverTables';

const noParty = { name: '', email: null, address: [], country: null, taxNumber: null };

export async function invoiceDocument(
  app: FastifyInstance,
  row: InvoiceRow,
): Promise<InvoiceDocument> {
  const invoice = invoiceRecord(row, app.services.clock());
  if (!invoice.number) throw new HttpError(409, 'This invoice has no number yet');
  const refersTo =
    invoice.refers_to === null
      ? null
      : ((
          await app.db
            .selectFrom('invoices')
            .select('number')
            .where('id', '=', invoice.refers_to)
            .executeTakeFirst()
        )?.number ?? null);
  const seller = invoice.seller ?? noParty;
  const buyer = invoice.buyer ?? noParty;
  const instructions =
    invoice.status === 'open' ? (await billingSettings(app)).manualInstructions || null : null;
  return {
    kind: invoice.kind,
    number: invoice.number,
    refersTo,
    status: invoice.status,
    issuedAt: invoice.finalized_at ?? invoice.created_at,
    dueAt: invoice.due_at,
    paidAt: invoice.paid_at,
    seller: {
      name: seller.name,
      address: seller.address,
      taxNumber: seller.taxNumber,
      email: seller.email,
    },
    buyer: {
      name: buyer.name,
      email: buyer.email ?? '',
      address: buyer.address,
      country: buyer.country,
      taxNumber: buyer.taxNumber,
    },
    currency: invoice.currency,
    lines: (await linesOf(app.db, row.id)).map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitMinor: line.unit_minor,
      amountMinor: line.amount_minor,
    })),
    subtotalMinor: invoice.subtotal_minor,
    discountMinor: invoice.discount_minor,
    discountLabel: invoice.discount_label,
    taxRatePercent: invoice.tax_rate_percent,
    taxMinor: invoice.tax_minor,
    // A credit note's reason is its line; no reverse-charge wording is issued yet.
    taxNote: null,
    totalMinor: invoice.total_minor,
    paymentInstructions: instructions,
  };
}

/** Sends the invoice's PDF as a download named by its number. */
export async function sendInvoicePdf(app: FastifyInstance, row: InvoiceRow, reply: FastifyReply) {
  const doc = await invoiceDocument(app, row);
  const pdf = await renderInvoicePdf(doc);
  reply.header('content-type', 'application/pdf');
  reply.header('content-disposition', `attachment; filename="${doc.number}.pdf"`);
  reply.header('cache-control', 'no-store');
  return reply.send(pdf);
}
