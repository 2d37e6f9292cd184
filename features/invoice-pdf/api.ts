/**
 * What invoice PDFs offer every program: the document an invoice or credit note is drawn from.
 * The drawing itself is the panel's (serverApi.ts `renderInvoicePdf`). Amounts are integer minor
 * units of `currency`; times are ISO strings.
 */
export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  /** '2026-000001' (credit notes 'CN-2026-000001'). */
  number: string;
  /** A credit note's invoice number. */
  refersTo: string | null;
  /** open | paid | void | uncollectible */
  status: string;
  issuedAt: string;
  dueAt: string | null;
  paidAt: string | null;
  seller: { name: string; address: string[]; taxNumber: string | null; email: string | null };
  buyer: {
    name: string;
    email: string;
    address: string[];
    country: string | null;
    taxNumber: string | null;
  };
  currency: string;
  lines: Array<{ description: string; quantity: number; unitMinor: number; amountMinor: number }>;
  subtotalMinor: number;
  discountMinor: number;
  discountLabel: string | null;
  taxRatePercent: number | null;
  taxMinor: number;
  /** Shown under the tax (a reverse charge's wording, an exemption). */
  taxNote: string | null;
  totalMinor: number;
  paymentInstructions: string | null;
}
