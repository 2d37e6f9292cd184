import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { usePaging } from '../../src/generic/TablePager';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { INTERVAL_WORDS, InvoicesTable, SubscriptionStatus, money } from './parts';
import type { Invoice, SubscriptionView } from './schemas';

/**
 * What PayPal's return route (`/api/v1/paypal/return`) says in `?paypal=` after capturing the
 * order server-side: the buyer, back from PayPal, reads how it went.
 */
const PAYPAL_RETURN: Record<string, { severity: 'success' | 'info' | 'error'; text: string }> = {
  succeeded: { severity: 'success', text: 'Your PayPal payment went through.' },
  processing: {
    severity: 'info',
    text: 'PayPal is still processing your payment: your plan starts once it completes.',
  },
  cancelled: {
    severity: 'info',
    text: 'You cancelled the PayPal payment: your invoice is still open.',
  },
};
const PAYPAL_FAILED = {
  severity: 'error',
  text: 'The PayPal payment did not go through: your invoice is still open.',
} as const;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="div">{children}</Typography>
    </Box>
  );
}

/** /subscription: the plan, its period and status, the next invoice, a coupon, cancel, invoices. */
export default function SubscriptionPage() {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const paging = usePaging(10);
  const [confirming, setConfirming] = useState(false);
  const [code, setCode] = useState('');
  const [couponError, setCouponError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [search, setSearch] = useSearchParams();
  const paypalStatus = search.get('paypal');
  const paypal = paypalStatus ? (PAYPAL_RETURN[paypalStatus] ?? PAYPAL_FAILED) : null;
  const view = useQuery({
    queryKey: ['billing', 'subscription'],
    queryFn: ({ signal }) => dp.action<SubscriptionView>('billing', 'subscription', { signal }),
  });
  const invoices = useQuery({
    queryKey: ['billing', 'invoices', paging.page, paging.perPage],
    queryFn: ({ signal }) =>
      dp.action<{ data: Invoice[]; total: number }>('billing', 'invoices', {
        query: { page: paging.page + 1, perPage: paging.perPage },
        signal,
      }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['billing'] });

  if (view.isPending) return <CircularProgress aria-label="Loading the subscription" />;
  if (view.error || !view.data) return <Alert severity="error">{errorMessage(view.error)}</Alert>;
  const { subscription: sub, open_invoice: open, next_invoice: next } = view.data;

  const cancel = async () => {
    setConfirming(false);
    setProblem(null);
    try {
      await dp.action('billing', 'cancel');
      // An unpaid subscription ends at once; a paid one runs to its period's end (said below).
      setNotice(
        sub?.status === 'incomplete'
          ? 'Your subscription is canceled and its invoice voided.'
          : 'Your subscription is canceled: it runs until the end of the period.',
      );
      await refresh();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  const apply = async (event: React.FormEvent) => {
    event.preventDefault();
    setCouponError(null);
    if (!code.trim()) return setCouponError('Type the coupon code');
    try {
      await dp.action('billing', 'applyCoupon', { query: { name: code.trim() } });
      setNotice(`The coupon ${code.trim()} will discount your next invoice.`);
      setCode('');
      await refresh();
    } catch (error) {
      setCouponError(errorMessage(error));
    }
  };

  return (
    <Box>
      <PageHeader
        title="Subscription"
        description="Your plan, what it costs and your invoices."
        actions={
          <Button component={RouterLink} to="/pricing" variant="outlined">
            See plans
          </Button>
        }
      />
      <Stack spacing={3}>
        {paypal && (
          <Alert
            severity={paypal.severity}
            role={paypal.severity === 'error' ? 'alert' : 'status'}
            data-testid="paypal-return"
            onClose={() => setSearch({}, { replace: true })}
          >
            {paypal.text}
          </Alert>
        )}
        {notice && (
          <Alert severity="success" onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" role="alert">
            {problem}
          </Alert>
        )}
        <SectionCard id="plan" title="Your plan" icon={WorkspacePremiumOutlined}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={4} sx={{ mb: 2 }}>
            <Fact label="Plan in force">
              <span data-testid="plan-in-force">{view.data.plan_name}</span>
            </Fact>
            {sub && (
              <>
                <Fact label="Status">
                  <SubscriptionStatus subscription={sub} />
                </Fact>
                <Fact label="Billed">{INTERVAL_WORDS[sub.interval]}</Fact>
                {sub.current_period_end && (
                  <Fact label="Current period">
                    {formatDate(sub.current_period_start)} – {formatDate(sub.current_period_end)}
                  </Fact>
                )}
              </>
            )}
          </Stack>
          {!sub && (
            <Typography sx={{ mb: 2 }}>
              You have no paid subscription. <RouterLink to="/pricing">Choose a plan</RouterLink>.
            </Typography>
          )}
          {sub?.cancel_at_period_end && (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="plan-ends">
              Your subscription ends on {formatDate(sub.current_period_end)}; then your account is
              on the Free plan.
            </Alert>
          )}
          {sub?.scheduled_plan_id && (
            <Alert severity="info" sx={{ mb: 2 }}>
              Your plan changes at the end of the period ({formatDate(sub.current_period_end)}).
            </Alert>
          )}
          {open && (
            <Alert
              severity={open.overdue ? 'error' : 'warning'}
              sx={{ mb: 2 }}
              action={
                <Button component={RouterLink} to={`/payment/${open.id}`} color="inherit">
                  Pay
                </Button>
              }
            >
              Invoice {open.number} of {money(open.total_minor, open.currency)} is waiting for
              payment{open.overdue ? ' and overdue' : ''}.
            </Alert>
          )}
          {next && (
            <Typography sx={{ mb: 2 }} data-testid="next-invoice">
              Next invoice on {formatDate(next.at)}: {money(next.amount_minor, next.currency)}
              {next.discount_minor > 0 &&
                ` (${money(next.discount_minor, next.currency)} off with your coupon)`}
              .
            </Typography>
          )}
          <Stack direction="row" spacing={1}>
            {sub && sub.status === 'active' && sub.plan_id !== 4 && (
              <Button component={RouterLink} to="/subscribe-to-higher-plan" variant="contained">
                Upgrade
              </Button>
            )}
            {sub && !sub.cancel_at_period_end && sub.plan_id !== 2 && (
              <Button color="error" variant="outlined" onClick={() => setConfirming(true)}>
                Cancel subscription
              </Button>
            )}
          </Stack>
        </SectionCard>

        {sub && sub.plan_id !== 2 && (
          <SectionCard
            id="coupon"
            title="Coupon"
            icon={LocalOfferOutlined}
            subtitle="A coupon discounts your next invoices; one already issued keeps its amount."
          >
            {sub.coupon_code && sub.coupon_periods_left !== 0 ? (
              <Typography>
                {sub.coupon_code} is applied
                {sub.coupon_periods_left === null
                  ? ' to every invoice'
                  : ` to the next ${sub.coupon_periods_left} invoice(s)`}
                .
              </Typography>
            ) : (
              <Box component="form" onSubmit={apply} noValidate sx={{ display: 'flex', gap: 1 }}>
                <TextField
                  size="small"
                  label="Coupon code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  error={Boolean(couponError)}
                  helperText={couponError ?? ' '}
                />
                <Button type="submit" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
                  Apply
                </Button>
              </Box>
            )}
          </SectionCard>
        )}

        <SectionCard id="invoices" title="Invoices" icon={ReceiptLongOutlined}>
          <InvoicesTable
            query={{
              isPending: invoices.isPending,
              error: invoices.error,
              data: invoices.data?.data,
            }}
            total={invoices.data?.total ?? 0}
            paging={paging}
          />
        </SectionCard>
      </Stack>
      <Dialog open={confirming} onClose={() => setConfirming(false)}>
        <DialogTitle>Cancel your subscription?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {sub?.status === 'incomplete'
              ? 'It has not been paid yet: it ends now and its invoice is voided.'
              : `You keep ${sub?.plan_name ?? 'your plan'} until ${formatDate(sub?.current_period_end)}; then your account moves to the Free plan. Nothing is refunded.`}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} autoFocus>
            Keep it
          </Button>
          <Button color="error" onClick={() => void cancel()}>
            Cancel subscription
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
