import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { CopyButton } from '../../src/generic/CopyButton';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { PaypalPayButton, StripePaymentForm } from '../payment-methods/pagesApi';
import { money } from './parts';
import type { InvoiceDetail, PaymentIntent } from './schemas';

/**
 * /payment/{id} (the spec's /payment{id}): pay an open invoice. Bank transfer: the admin's
 * instructions and the transfer's reference; an admin marks it paid when the money arrives.
 * Card: Stripe.js confirms the payment in the page, then the panel looks at Stripe itself before
 * the plan changes; PayPal: its approve page, whose return the panel completes.
 */
export default function PaymentPage() {
  const { id = '' } = useParams();
  const dp = useStackdeckData();
  const invoice = useQuery({
    queryKey: ['billing', 'invoice', id],
    queryFn: ({ signal }) =>
      dp.action<InvoiceDetail>('billing', 'invoice', { params: { invoiceId: id }, signal }),
  });
  const card = invoice.data?.payments.some((p) => p.gateway !== 'manual') ?? false;
  const planId = invoice.data?.plan_id;
  // Asking also settles a payment Stripe.js finished: the panel looks at Stripe itself.
  const intent = useQuery({
    queryKey: ['billing', 'payment-intent', id],
    enabled: invoice.data?.status === 'open' && card && planId != null,
    queryFn: ({ signal }) =>
      dp.action<PaymentIntent>('billing', 'paymentIntent', { query: { pid: planId }, signal }),
  });
  const refresh = () => {
    void intent.refetch().then(() => invoice.refetch());
  };
  if (invoice.isPending) return <CircularProgress aria-label="Loading the invoice" />;
  if (invoice.error || !invoice.data)
    return <Alert severity="error">{errorMessage(invoice.error)}</Alert>;
  const inv = invoice.data;
  const transfer = [...inv.payments]
    .reverse()
    .find((p) => p.gateway === 'manual' && p.status === 'processing');
  return (
    <Box>
      <PageHeader
        title={`Pay invoice ${inv.number ?? ''}`}
        description={`${money(inv.total_minor, inv.currency)}`}
        actions={
          <Button component={RouterLink} to={`/payment-invoice/${inv.id}`}>
            View invoice
          </Button>
        }
      />
      {inv.status === 'paid' && <Alert severity="success">This invoice is paid. Thank you.</Alert>}
      {inv.status === 'void' && (
        <Alert severity="info">This invoice was voided: nothing to pay.</Alert>
      )}
      {inv.status === 'open' && (
        <Stack spacing={3}>
          {transfer && (
            <SectionCard id="bank-transfer" title="Bank transfer" icon={AccountBalanceOutlined}>
              <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="transfer-instructions">
                {transfer.message}
              </Typography>
              {transfer.gateway_payment_id && (
                <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
                  <Typography>
                    Reference: <strong>{transfer.gateway_payment_id}</strong>
                  </Typography>
                  <CopyButton value={transfer.gateway_payment_id} label="Copy the reference" />
                </Stack>
              )}
              <Alert severity="info" sx={{ mt: 2 }}>
                Your plan starts once the transfer arrives and we mark the invoice paid.
              </Alert>
            </SectionCard>
          )}
          {!transfer && !card && (
            <Alert severity="info">
              No payment has been started for this invoice yet: contact us to pay it.
            </Alert>
          )}
          {card && (
            <SectionCard id="card-payment" title="Card or PayPal" icon={CreditCardOutlined}>
              <CardPayment
                intent={intent.data}
                pending={intent.isPending}
                error={intent.error}
                userId={inv.user_id}
                onDone={refresh}
              />
            </SectionCard>
          )}
        </Stack>
      )}
    </Box>
  );
}

/** The card or PayPal part: what the gateway asks for now. */
function CardPayment(props: {
  intent: PaymentIntent | undefined;
  pending: boolean;
  error: unknown;
  userId: number;
  onDone: () => void;
}) {
  const { intent } = props;
  if (props.pending) return <CircularProgress aria-label="Asking the payment's state" />;
  if (props.error || !intent) return <Alert severity="error">{errorMessage(props.error)}</Alert>;
  if (intent.status === 'succeeded')
    return <Alert severity="success">The payment went through.</Alert>;
  if (intent.status === 'processing')
    return (
      <Alert severity="info">
        The payment is being processed; this page shows it paid once the bank confirms.
      </Alert>
    );
  if (intent.client_secret && intent.publishable_key)
    return (
      <StripePaymentForm
        clientSecret={intent.client_secret}
        publishableKey={intent.publishable_key}
        onDone={props.onDone}
      />
    );
  if (intent.approve_url) return <PaypalPayButton approveUrl={intent.approve_url} />;
  return (
    <Alert severity="warning">
      {intent.instructions ?? 'The last payment did not go through.'} Check{' '}
      <RouterLink to={`/recharge-payment-method/${props.userId}`}>your payment methods</RouterLink>;
      we try the default one again on the next retry day.
    </Alert>
  );
}
