import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Grid,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../resources/user-profile';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { INTERVAL_WORDS, InvoiceStatus, SubscriptionStatus, money } from './parts';
import type { Invoice, Subscription } from './schemas';

interface AdminSubscription {
  plan_id: number;
  plan_name: string;
  subscription: Subscription | null;
  history: Subscription[];
  open_invoices: Invoice[];
}
interface Revenue {
  entries: Array<{
    invoice_id: number;
    number: string | null;
    kind: 'invoice' | 'credit_note';
    paid_at: string | null;
    amount_minor: number;
    currency: string;
  }>;
  total_minor: number;
  currency: string;
}

/** An open invoice an admin marks paid (with the bank's reference) or voids. */
function OpenInvoiceRow({ invoice, isAdmin }: { invoice: Invoice; isAdmin: boolean }) {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const [reference, setReference] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The action waiting for the admin's confirmation: both change money records for good.
  const [confirming, setConfirming] = useState<'mark-paid' | 'void' | null>(null);
  const ask = (action: 'mark-paid' | 'void') => {
    setProblem(null);
    if (action === 'mark-paid' && !reference.trim())
      return setProblem('Type the bank reference of the transfer');
    setConfirming(action);
  };
  const act = async (action: 'mark-paid' | 'void') => {
    setConfirming(null);
    try {
      await dp.action('billing-admin', 'settle', {
        params: { id: invoice.id },
        query: { action },
        body: action === 'mark-paid' ? { bank_reference: reference.trim() } : {},
      });
      await queryClient.invalidateQueries({ queryKey: ['billing-admin'] });
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return (
    <TableRow>
      <TableCell>{invoice.number}</TableCell>
      <TableCell>{formatDate(invoice.due_at)}</TableCell>
      <TableCell align="right">{money(invoice.total_minor, invoice.currency)}</TableCell>
      <TableCell>
        <InvoiceStatus invoice={invoice} />
      </TableCell>
      <TableCell>
        {isAdmin ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              size="small"
              label="Bank reference"
              value={reference}
              onChange={(e) => setReference(e.target.value)}
              error={Boolean(problem)}
              helperText={problem ?? ' '}
            />
            <Button onClick={() => ask('mark-paid')}>Mark paid</Button>
            <Button color="error" onClick={() => ask('void')}>
              Void
            </Button>
          </Stack>
        ) : null}
        <Dialog open={confirming !== null} onClose={() => setConfirming(null)}>
          <DialogTitle>
            {confirming === 'void'
              ? `Void invoice ${invoice.number}?`
              : `Mark invoice ${invoice.number} paid?`}
          </DialogTitle>
          <DialogContent>
            <DialogContentText>
              {confirming === 'void'
                ? `Its ${money(invoice.total_minor, invoice.currency)} are no longer collected; a voided invoice cannot be paid again.`
                : `${money(invoice.total_minor, invoice.currency)} arrived by bank transfer with the reference ${reference.trim()}: the user's plan starts now.`}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirming(null)} autoFocus>
              Back
            </Button>
            <Button
              color={confirming === 'void' ? 'error' : 'primary'}
              onClick={() => confirming && void act(confirming)}
            >
              {confirming === 'void' ? 'Void' : 'Mark paid'}
            </Button>
          </DialogActions>
        </Dialog>
      </TableCell>
    </TableRow>
  );
}

/** The admin profile's billing cards: the user's subscription and their revenue. */
export default function AdminUserBilling({ user, isAdmin }: { user: User; isAdmin: boolean }) {
  const dp = useStackdeckData();
  const sub = useQuery({
    queryKey: ['billing-admin', 'subscription', user.id],
    queryFn: ({ signal }) =>
      dp.action<AdminSubscription>('billing-admin', 'userSubscription', {
        query: { uid: user.id },
        signal,
      }),
  });
  const revenue = useQuery({
    queryKey: ['billing-admin', 'revenue', user.id],
    queryFn: ({ signal }) =>
      dp.action<Revenue>('billing-admin', 'userRevenue', { query: { uid: user.id }, signal }),
  });
  const live = sub.data?.subscription;
  return (
    <>
      <Grid size={12}>
        <SectionCard
          id="admin-profile-subscription"
          title="Subscription"
          icon={WorkspacePremiumOutlined}
        >
          {sub.error ? (
            <Alert severity="error">{errorMessage(sub.error)}</Alert>
          ) : (
            <Stack spacing={2}>
              <Typography data-testid="admin-plan">
                Plan in force: <strong>{sub.data?.plan_name ?? '…'}</strong>
                {live ? (
                  <>
                    {' '}
                    — {live.plan_name}, {INTERVAL_WORDS[live.interval]}, paid by{' '}
                    {live.pay_type === 'manual' ? 'bank transfer' : live.pay_type}{' '}
                    <SubscriptionStatus subscription={live} />
                    {live.current_period_end &&
                      ` until ${formatDate(live.current_period_end)}${live.cancel_at_period_end ? ' (ends then)' : ''}`}
                  </>
                ) : null}
              </Typography>
              <QueryTable
                query={{
                  isPending: sub.isPending,
                  error: sub.error,
                  data: sub.data?.open_invoices,
                }}
                failed="The open invoices could not be loaded."
                empty="No invoice is waiting for payment."
                label="Open invoices"
                columns={['Number', 'Due', { label: 'Total', align: 'right' }, 'Status', '']}
              >
                {(rows) =>
                  rows.map((inv) => <OpenInvoiceRow key={inv.id} invoice={inv} isAdmin={isAdmin} />)
                }
              </QueryTable>
            </Stack>
          )}
        </SectionCard>
      </Grid>
      <Grid size={12}>
        <SectionCard
          id="admin-profile-revenue"
          title="Revenue"
          icon={PaidOutlined}
          subtitle={
            revenue.data
              ? `Total ${money(revenue.data.total_minor, revenue.data.currency)}`
              : undefined
          }
        >
          <QueryTable
            query={{
              isPending: revenue.isPending,
              error: revenue.error,
              data: revenue.data?.entries,
            }}
            failed="The revenue could not be loaded."
            empty="No paid invoice yet."
            label="Revenue"
            columns={['Document', 'Paid', { label: 'Amount', align: 'right' }]}
          >
            {(rows) =>
              rows.map((e) => (
                <TableRow key={e.invoice_id}>
                  <TableCell>
                    <span>
                      {e.kind === 'credit_note' ? 'Credit note ' : 'Invoice '}
                      {e.number}
                    </span>
                  </TableCell>
                  <TableCell>{formatDate(e.paid_at)}</TableCell>
                  <TableCell align="right">{money(e.amount_minor, e.currency)}</TableCell>
                </TableRow>
              ))
            }
          </QueryTable>
        </SectionCard>
      </Grid>
    </>
  );
}
