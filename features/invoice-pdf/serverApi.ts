/**
 * What invoice PDFs offer the panel's other features (billing): an invoice or credit note drawn
 * as an A4 PDF. Nothing else in this folder is for import.
 */
export type { InvoiceDocument } from './api';
export { renderInvoicePdf } from './serverRender';
