import { useState } from 'react';
import {
  Box,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TableCell,
  TableRow,
} from '@mui/material';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import { useGetList, useNotify, useUpdate } from 'ra-core';
import { type SettledStatus, WITHDRAWAL_STATUSES, type Withdrawal } from './schemas';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { formatDateTime } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { errorMessage } from '../../src/generic/serverErrors';
import { StatusFilter } from '../../src/generic/StatusFilter';
import { TablePager, usePaging } from '../../src/generic/TablePager';

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
type Decision = { withdrawal: Withdrawal; status: SettledStatus };

/** What each decision says: its button, the dialog's question and the note after it. */
const WORDS: Record<SettledStatus, { button: string; ask: string; done: string }> = {
  approved: { button: 'Approve', ask: 'Approve this request?', done: 'Approved: pay it next.' },
  paid: { button: 'Mark paid', ask: 'Mark this request paid?', done: 'Marked paid.' },
  rejected: {
    button: 'Reject',
    ask: 'Reject this request?',
    done: 'Rejected; the amount is back in the balance.',
  },
};

/** What an admin may do next with a request (requested -> approved -> paid, or rejected). */
const NEXT: Record<Withdrawal['status'], SettledStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['paid', 'rejected'],
  paid: [],
  rejected: [],
};

/** The dialog's words for a decision. */
function consequence({ withdrawal: w, status }: Decision): string {
  const amount = money(w.amount_cents);
  if (status === 'approved') return `${amount} to ${w.email}: you pay it next, then mark it paid.`;
  if (status === 'paid') return `Only after you sent ${amount} to ${w.email}.`;
  return `${amount} returns to ${w.email}'s balance.`;
}

/**
 * /admin/referrals: users' payout requests; an admin approves one, pays it (outside) and marks it
 * paid here, or rejects it.
 */
export default function AdminReferralsPage() {
  const notify = useNotify();
  const [status, setStatus] = useState<'' | Withdrawal['status']>('pending');
  const paging = usePaging(25);
  const { page, perPage, setPage } = paging;
  const [decision, setDecision] = useState<Decision | null>(null);
  const { data, total, isPending, error, refetch } = useGetList<Withdrawal>(
    'referral-withdrawals',
    {
      pagination: { page: page + 1, perPage },
      sort: { field: 'created_at', order: 'DESC' },
      filter: status ? { status } : {},
    },
  );
  const [update, { isPending: saving }] = useUpdate();
  const decide = async ({ withdrawal, status: next }: Decision) => {
    try {
      await update(
        'referral-withdrawals',
        { id: withdrawal.id, data: { status: next }, previousData: withdrawal },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notify(WORDS[next].done, { type: 'success' });
    } catch (e) {
      notify(errorMessage(e), { type: 'error' });
    }
    setDecision(null);
    void refetch();
  };

  return (
    <Box>
      <PageHeader
        title="Referral withdrawals"
        description="Approve a request, send the money by the method given, then mark it paid. Rejecting returns the amount to the user's balance."
      />
      <StatusFilter
        id="withdrawal-status-filter"
        value={status}
        statuses={WITHDRAWAL_STATUSES}
        labelOf={(s) => s[0]!.toUpperCase() + s.slice(1)}
        onChange={(next) => {
          setStatus(next);
          setPage(0);
        }}
        sx={{ mb: 2 }}
      />
      <Card variant="outlined">
        <QueryTable
          query={{ isPending, error, data }}
          failed="The withdrawal requests could not be loaded."
          label="Withdrawal requests"
          size="medium"
          columns={[
            'Requested',
            'User',
            { label: 'Amount', align: 'right' },
            'Pay to',
            'Status',
            '',
          ]}
          empty={
            <EmptyState
              icon={PaymentsOutlined}
              title={
                status === 'pending' || status === 'approved' ? 'Nothing to do' : 'No requests'
              }
              text="Users' payout requests appear here."
            />
          }
          footer={<TablePager paging={paging} total={total} options={[10, 25, 50]} />}
        >
          {(rows) =>
            rows.map((w) => (
              <TableRow key={w.id}>
                <TableCell>{formatDateTime(w.created_at)}</TableCell>
                <TableCell>{w.email}</TableCell>
                <TableCell align="right">{money(w.amount_cents)}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', maxWidth: 280 }}>
                  {w.method === 'paypal' ? 'PayPal' : 'Bank'}: {w.details}
                </TableCell>
                <TableCell>
                  <Chip size="small" label={w.status} />
                </TableCell>
                <TableCell align="right">
                  {NEXT[w.status].length > 0 && (
                    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                      {NEXT[w.status].map((next) => (
                        <Button
                          key={next}
                          size="small"
                          variant={next === 'rejected' ? 'text' : 'contained'}
                          color={next === 'rejected' ? 'warning' : 'primary'}
                          sx={{ whiteSpace: 'nowrap' }}
                          onClick={() => setDecision({ withdrawal: w, status: next })}
                        >
                          {WORDS[next].button}
                        </Button>
                      ))}
                    </Stack>
                  )}
                </TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </Card>
      <Dialog open={decision !== null} onClose={() => setDecision(null)}>
        <DialogTitle>{decision && WORDS[decision.status].ask}</DialogTitle>
        <DialogContent>
          <DialogContentText>{decision && consequence(decision)}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDecision(null)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={saving}
            onClick={() => decision && void decide(decision)}
          >
            {decision && WORDS[decision.status].button}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
