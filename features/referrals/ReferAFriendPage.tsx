import { useState } from 'react';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Grid,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form } from 'ra-core';
import { SaveButton, SelectInput, TextInput } from 'ra-ui-materialui';
import {
  type ReferralSummary,
  type Withdrawal,
  type WithdrawRequest,
  withdrawBody,
} from './schemas';
import { CopyButton } from '../../src/generic/CopyButton';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { formatDate, formatDateTime } from '../../src/generic/format';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { errorMessage } from '../../src/generic/serverErrors';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { useStackdeckAuth, useStackdeckData } from '../../src/hooks';
import { ActingNotice } from '../../src/pages/account/ActingNotice';
import { TablePager, usePaging } from '../../src/generic/TablePager';

const resolver = schemaResolver(withdrawBody);
const FIELDS = ['amount', 'method', 'details'];
const METHODS = [
  { id: 'paypal', name: 'PayPal' },
  { id: 'bank', name: 'Bank transfer' },
];
export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const STATUS_COLOR: Record<Withdrawal['status'], 'warning' | 'info' | 'success' | 'default'> = {
  pending: 'warning',
  approved: 'info',
  paid: 'success',
  rejected: 'default',
};

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /refer-a-friend: the link, what it earned, who joined, a withdrawal form and the history. */
export default function ReferAFriendPage() {
  const dp = useStackdeckData();
  const acting = useStackdeckAuth().isActing();
  const queryClient = useQueryClient();
  const paging = usePaging(10);
  const { page, perPage } = paging;
  const [generation, setGeneration] = useState(0);
  const { data, error, isPending } = useQuery({
    queryKey: ['referrals', page, perPage],
    queryFn: ({ signal }) =>
      dp.action<ReferralSummary>('referrals', 'summary', {
        query: { page: page + 1, perPage },
        signal,
      }),
  });
  const onWithdraw = useSubmitHandler<WithdrawRequest>(
    FIELDS,
    async (values) => {
      await dp.action('referrals', 'withdraw', { body: values });
      await queryClient.invalidateQueries({ queryKey: ['referrals'] });
      setGeneration((n) => n + 1);
    },
    'Withdrawal requested. We will send the money soon.',
  );

  if (isPending) return <CircularProgress aria-label="Loading referrals" />;
  if (error || !data) return <Alert severity="error">{errorMessage(error)}</Alert>;
  const canWithdraw = data.withdrawable_cents >= data.min_withdrawal_cents && !acting;
  return (
    <Box>
      <PageHeader
        title="Refer a friend"
        description="Share your link. When someone registers through it, you earn a share of what they pay."
      />
      <Stack spacing={3}>
        <SectionCard id="referral-link" title="Your referral link" icon={CardGiftcardOutlined}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              value={data.link}
              label="Referral link"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'referral-link' } }}
              onFocus={(e) => e.target.select()}
            />
            <CopyButton value={data.link} label="Copy referral link" />
          </Stack>
        </SectionCard>

        <Grid container spacing={2}>
          <Grid size={{ xs: 6, md: 3 }}>
            <Stat
              label="Referred users"
              value={String(data.referred.total)}
              testId="stat-referred"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Stat label="Earned" value={money(data.earned_cents)} testId="stat-earned" />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Stat
              label="Withdrawable"
              value={money(data.withdrawable_cents)}
              testId="stat-withdrawable"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Stat label="Paid out" value={money(data.paid_cents)} testId="stat-paid" />
          </Grid>
        </Grid>

        <SectionCard id="referred-users" title="Referred users" icon={GroupOutlined}>
          <QueryTable
            query={{ isPending: false, error: null, data: data.referred.data }}
            failed="The referred users could not be loaded."
            label="Referred users"
            columns={['User', 'Joined', { label: 'Earned', align: 'right' }]}
            empty={
              <EmptyState
                icon={GroupOutlined}
                title="Nobody yet"
                text="Users who register through your link appear here."
              />
            }
            footer={
              <TablePager paging={paging} total={data.referred.total} options={[10, 25, 50]} />
            }
          >
            {(rows) =>
              rows.map((u, i) => (
                <TableRow key={`${u.email}-${u.joined_at}-${i}`}>
                  <TableCell>{u.email}</TableCell>
                  <TableCell>{formatDate(u.joined_at)}</TableCell>
                  <TableCell align="right">{money(u.earned_cents)}</TableCell>
                </TableRow>
              ))
            }
          </QueryTable>
        </SectionCard>

        <SectionCard
          id="withdraw"
          title="Withdraw"
          subtitle={`At least ${money(data.min_withdrawal_cents)}; up to ${money(data.withdrawable_cents)} now.`}
          icon={PaymentsOutlined}
        >
          {acting ? <ActingNotice only="ask for a payout" /> : null}
          {!acting && !canWithdraw && (
            <Alert severity="info" sx={{ mb: 2 }}>
              You can ask for a payout once your withdrawable balance reaches{' '}
              {money(data.min_withdrawal_cents)}.
            </Alert>
          )}
          <Form
            key={generation}
            defaultValues={{ amount: '', method: 'paypal', details: '' }}
            resolver={resolver}
            onSubmit={onWithdraw}
            disabled={!canWithdraw}
            noValidate
          >
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput
                size="medium"
                source="amount"
                label="Amount (USD)"
                helperText="e.g. 25.00"
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                fullWidth
              />
              <SelectInput
                size="medium"
                source="method"
                label="Payout method"
                choices={METHODS}
                fullWidth
              />
            </Stack>
            <TextInput
              size="medium"
              source="details"
              label="Payout details"
              helperText="Your PayPal address, or the bank account (IBAN and the holder's name)"
              multiline
              minRows={2}
              fullWidth
            />
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              <SaveButton
                label="Request withdrawal"
                icon={<PaymentsOutlined />}
                alwaysEnable={canWithdraw}
                disabled={!canWithdraw}
              />
            </Stack>
          </Form>
        </SectionCard>

        <SectionCard id="withdrawal-history" title="Withdrawal history" icon={ReceiptLongOutlined}>
          <QueryTable
            query={{ isPending: false, error: null, data: data.withdrawals.data }}
            failed="The withdrawals could not be loaded."
            label="Withdrawal history"
            columns={[
              'Requested',
              { label: 'Amount', align: 'right' },
              'Method',
              'Status',
              'Processed',
            ]}
            empty={
              <EmptyState
                icon={ReceiptLongOutlined}
                title="No withdrawals yet"
                text="Your payout requests and their state appear here."
              />
            }
            footer={
              data.withdrawals.total > data.withdrawals.data.length ? (
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                  The {data.withdrawals.data.length} latest of {data.withdrawals.total} requests.
                </Typography>
              ) : null
            }
          >
            {(rows) =>
              rows.map((w) => (
                <TableRow key={w.id}>
                  <TableCell>{formatDateTime(w.created_at)}</TableCell>
                  <TableCell align="right">{money(w.amount_cents)}</TableCell>
                  <TableCell>{w.method === 'paypal' ? 'PayPal' : 'Bank transfer'}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLOR[w.status]} label={w.status} />
                  </TableCell>
                  <TableCell>{w.processed_at ? formatDateTime(w.processed_at) : '—'}</TableCell>
                </TableRow>
              ))
            }
          </QueryTable>
        </SectionCard>
      </Stack>
    </Box>
  );
}
