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
import { WITHDRAWAL_STATUSES, type Withdrawal } from './schemas';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { formatDateTime } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { errorMessage } from '../../src/generic/serverErrors';
import { StatusFilter } from '../../src/generic/StatusFilter';
import { TablePager, usePaging } from '../../src/generic/TablePager';

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
type Decision = { withdrawal: Withdrawal; status: 'paid' | 'rejected' };

/** /admin/referrals: users' payout requests; an admin pays them (outside) and marks them here. */
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
      notify(next === 'paid' ? 'Marked paid.' : 'Rejected; the amount is back in the balance.', {
        type: 'success',
      });
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
        description="Send the money by the method given, then mark the request paid. Rejecting returns the amount to the user's balance."
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
              title={status === 'pending' ? 'Nothing to pay' : 'No requests'}
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
                  {w.status === 'pending' && (
                    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                      <Button
                        size="small"
                        variant="contained"
                        sx={{ whiteSpace: 'nowrap' }}
                        onClick={() => setDecision({ withdrawal: w, status: 'paid' })}
                      >
                        Mark paid
                      </Button>
                      <Button
                        size="small"
                        color="warning"
                        onClick={() => setDecision({ withdrawal: w, status: 'rejected' })}
                      >
                        Reject
                      </Button>
                    </Stack>
                  )}
                </TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </Card>
      <Dialog open={decision !== null} onClose={() => setDecision(null)}>
        <DialogTitle>
          {decision?.status === 'paid' ? 'Mark this request paid?' : 'Reject this request?'}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {decision &&
              (decision.status === 'paid'
                ? `Only after you sent ${money(decision.withdrawal.amount_cents)} to ${decision.withdrawal.email}.`
                : `${money(decision.withdrawal.amount_cents)} returns to ${decision.withdrawal.email}'s balance.`)}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDecision(null)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={saving}
            onClick={() => decision && void decide(decision)}
          >
            {decision?.status === 'paid' ? 'Mark paid' : 'Reject'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
