import { type FormEvent, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Stack,
  TableCell,
  TableRow,
  TextField,
} from '@mui/material';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { StatusFilter } from '../../src/generic/StatusFilter';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { formatDate } from '../../src/generic/format';
import { errorMessage, fieldErrorsOf } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { decimalToMinor } from '../payments/api';
import { InvoiceStatus, money } from './parts';
import type { Invoice } from './schemas';

const STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const;
type Status = (typeof STATUSES)[number];
const STATUS_WORDS: Record<Status, string> = {
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

type Action = 'mark-paid' | 'void' | 'credit-note';

/** The confirmation of one action on an invoice, with its fields and the server's errors. */
function ActionDialog({
  invoice,
  action,
  onClose,
}: {
  invoice: Invoice;
  action: Action;
  onClose: () => void;
}) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [reference, setReference] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = invoice.number ?? `#${invoice.id}`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setProblem(null);
    if (action === 'mark-paid' && !reference.trim())
      return setErrors({ bank_reference: 'The bank reference of the transfer' });
    let amountMinor = 0;
    if (action === 'credit-note') {
      try {
        amountMinor = decimalToMinor(amount, invoice.currency);
      } catch {
        return setErrors({ amount_minor: `An amount in ${invoice.currency}, e.g. 12.50` });
      }
    }
    setBusy(true);
    try {
      if (action === 'credit-note')
        await dp.action('billing-admin', 'creditNote', {
          params: { id: invoice.id },
          body: { amount_minor: amountMinor, reason: reason.trim() },
        });
      else
        await dp.action('billing-admin', 'settle', {
          params: { id: invoice.id },
          query: { action },
          body: action === 'mark-paid' ? { bank_reference: reference.trim() } : {},
        });
      await queryClient.invalidateQueries({ queryKey: ['billing-admin'] });
      onClose();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setProblem(errorMessage(error, 'The invoice could not be changed.'));
    } finally {
      setBusy(false);
    }
  };

  const titles: Record<Action, string> = {
    'mark-paid': `Mark invoice ${name} paid`,
    void: `Void invoice ${name}?`,
    'credit-note': `Credit note against invoice ${name}`,
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="invoice-action-title" fullWidth maxWidth="sm">
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="invoice-action-title">{titles[action]}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {action === 'mark-paid' &&
                `The bank transfer of ${money(invoice.total_minor, invoice.currency)} arrived: the subscription it pays for becomes active.`}
              {action === 'void' &&
                `Invoice ${name} (${money(invoice.total_minor, invoice.currency)}) is cancelled for good; its number stays used.`}
              {action === 'credit-note' &&
                `A credit note gives back part or all of the ${money(invoice.total_minor, invoice.currency)} paid; it gets its own number and cannot be undone.`}
            </DialogContentText>
            {problem && Object.keys(errors).length === 0 ? (
              <Alert severity="error">{problem}</Alert>
            ) : null}
            {action === 'mark-paid' ? (
              <TextField
                autoFocus
                required
                label="Bank reference"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                error={Boolean(errors.bank_reference)}
                helperText={errors.bank_reference ?? 'As it appears on the bank statement'}
              />
            ) : null}
            {action === 'credit-note' ? (
              <>
                <TextField
                  autoFocus
                  required
                  label={`Amount (${invoice.currency})`}
                  value={amount}
                  inputMode="decimal"
                  onChange={(e) => setAmount(e.target.value)}
                  error={Boolean(errors.amount_minor)}
                  helperText={errors.amount_minor ?? 'At most what is left to credit'}
                />
                <TextField
                  required
                  label="Reason"
                  value={reason}
                  multiline
                  minRows={2}
                  onChange={(e) => setReason(e.target.value)}
                  error={Boolean(errors.reason)}
                  helperText={errors.reason ?? 'Printed on the credit note'}
                />
              </>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            color={action === 'void' ? 'error' : 'primary'}
            disabled={busy}
          >
            {action === 'mark-paid' ? 'Mark paid' : action === 'void' ? 'Void' : 'Issue'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** /admin/invoices: every invoice and credit note, newest first, with the admins' actions. */
export default function AdminInvoicesPage() {
  const dp = useStackdeckData();
  const paging = usePaging(25);
  const [status, setStatus] = useState<'' | Status>('');
  const [acting, setActing] = useState<{ invoice: Invoice; action: Action } | null>(null);
  const query = useQuery({
    queryKey: ['billing-admin', 'invoices', status, paging.page, paging.perPage],
    queryFn: ({ signal }) =>
      dp.action<{ data: Invoice[]; total: number }>('billing-admin', 'invoices', {
        query: {
          page: paging.page + 1,
          perPage: paging.perPage,
          ...(status ? { status } : {}),
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

  return (
    <Box>
      <PageHeader
        title="Invoices"
        description="Every invoice and credit note of the panel, newest first."
      />
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <StatusFilter
          id="admin-invoices-status"
          value={status}
          statuses={STATUSES}
          labelOf={(s) => STATUS_WORDS[s]}
          onChange={(value) => {
            setStatus(value);
            paging.setPage(0);
          }}
        />
        <Link component={RouterLink} to="/admin/dashboard">
          Back to the dashboard
        </Link>
      </Stack>
      <QueryTable
        size="medium"
        query={{ isPending: query.isPending, error: query.error, data: query.data?.data }}
        failed="The invoices could not be loaded."
        label="Invoices"
        columns={['Number', 'Date', 'Customer', { label: 'Total', align: 'right' }, 'Status', '']}
        empty={
          <EmptyState
            icon={ReceiptLongOutlined}
            title={status ? `No ${STATUS_WORDS[status].toLowerCase()} invoices` : 'No invoices yet'}
            text="Invoices appear here once users subscribe to a paid plan."
          />
        }
        footer={<TablePager paging={paging} total={query.data?.total} />}
      >
        {(rows) =>
          rows.map((inv) => (
            <TableRow key={inv.id}>
              <TableCell>
                {inv.kind === 'credit_note' ? 'Credit note ' : ''}
                {inv.number ?? `#${inv.id}`}
              </TableCell>
              <TableCell>{formatDate(inv.finalized_at ?? inv.created_at)}</TableCell>
              <TableCell>
                <Link component={RouterLink} to={`/admin/user-profile/${inv.user_id}`}>
                  {inv.buyer?.name ?? `User #${inv.user_id}`}
                </Link>
              </TableCell>
              <TableCell align="right">{money(inv.total_minor, inv.currency)}</TableCell>
              <TableCell>
                <InvoiceStatus invoice={inv} />
              </TableCell>
              <TableCell align="right">
                {inv.kind === 'invoice' && inv.status === 'open' ? (
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <Button
                      size="small"
                      onClick={() => setActing({ invoice: inv, action: 'mark-paid' })}
                    >
                      Mark paid
                    </Button>
                    <Button
                      size="small"
                      onClick={() => setActing({ invoice: inv, action: 'void' })}
                    >
                      Void
                    </Button>
                  </Stack>
                ) : null}
                {inv.kind === 'invoice' && inv.status === 'paid' ? (
                  <Button
                    size="small"
                    onClick={() => setActing({ invoice: inv, action: 'credit-note' })}
                  >
                    Credit note
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          ))
        }
      </QueryTable>
      {acting ? (
        <ActionDialog
          invoice={acting.invoice}
          action={acting.action}
          onClose={() => setActing(null)}
        />
      ) : null}
    </Box>
  );
}
