/** Pieces the billing pages share: amounts, status chips, the invoices table. */
import { Chip, Link, TableCell, TableRow } from '@mui/material';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { QueryTable } from '../../src/generic/QueryTable';
import { type Paging, TablePager } from '../../src/generic/TablePager';
import { formatDate } from '../../src/generic/format';
import { minorToDecimal } from '../payments/api';
import type { Invoice, Subscription } from './schemas';

/** "12.00 USD": exact, by the currency's exponent. */
export const money = (minor: number, currency: string) =>
  `${minorToDecimal(minor, currency)} ${currency}`;

export const INTERVAL_WORDS = { month: 'monthly', year: 'annual' } as const;

const INVOICE_COLOR = {
  draft: 'default',
  open: 'warning',
  paid: 'success',
  void: 'default',
  uncollectible: 'error',
} as const;

const INVOICE_WORDS = {
  draft: 'Draft',
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
  uncollectible: 'Uncollectible',
} as const;

export function InvoiceStatus({ invoice }: { invoice: Invoice }) {
  if (invoice.kind === 'credit_note') return <Chip size="small" label="Credit note" />;
  if (invoice.overdue) return <Chip size="small" color="error" label="Overdue" />;
  return (
    <Chip
      size="small"
      color={INVOICE_COLOR[invoice.status]}
      label={INVOICE_WORDS[invoice.status]}
    />
  );
}

const SUB_COLOR = {
  incomplete: 'warning',
  active: 'success',
  past_due: 'error',
  unpaid: 'error',
  canceled: 'default',
  incomplete_expired: 'default',
} as const;

const SUB_WORDS = {
  incomplete: 'Waiting for payment',
  active: 'Active',
  past_due: 'Past due',
  unpaid: 'Unpaid',
  canceled: 'Canceled',
  incomplete_expired: 'Expired unpaid',
} as const;

export function SubscriptionStatus({ subscription }: { subscription: Subscription }) {
  return (
    <Chip
      size="small"
      color={SUB_COLOR[subscription.status]}
      label={SUB_WORDS[subscription.status]}
      data-testid="subscription-status"
    />
  );
}

export function InvoicesTable(props: {
  query: { isPending: boolean; error: unknown; data?: Invoice[] };
  total: number;
  paging: Paging;
}) {
  return (
    <QueryTable
      query={props.query}
      failed="The invoices could not be loaded."
      label="Invoices"
      columns={['Number', 'Date', 'Period', { label: 'Total', align: 'right' }, 'Status']}
      empty={
        <EmptyState
          icon={ReceiptLongOutlined}
          title="No invoices yet"
          text="Invoices appear here once you subscribe to a paid plan."
        />
      }
      footer={<TablePager paging={props.paging} total={props.total} options={[10, 25, 50]} />}
    >
      {(rows) =>
        rows.map((inv) => (
          <TableRow key={inv.id}>
            <TableCell>
              <Link component={RouterLink} to={`/payment-invoice/${inv.id}`}>
                {inv.number ?? `#${inv.id}`}
              </Link>
            </TableCell>
            <TableCell>{formatDate(inv.finalized_at ?? inv.created_at)}</TableCell>
            <TableCell>
              {inv.period_start && inv.period_end
                ? `${formatDate(inv.period_start)} – ${formatDate(inv.period_end)}`
                : '—'}
            </TableCell>
            <TableCell align="right">{money(inv.total_minor, inv.currency)}</TableCell>
            <TableCell>
              <InvoiceStatus invoice={inv} />
            </TableCell>
          </TableRow>
        ))
      }
    </QueryTable>
  );
}
