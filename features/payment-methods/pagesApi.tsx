import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack } from '@mui/material';
import { useStripeCard } from './stripeJs';

/**
 * What payment-methods offers other features' pages (billing's `/payment{id}`): they import
 * it from here, never from its other files.
 */

/** Confirms a Stripe PaymentIntent in the page (3-D Secure included) with Stripe.js; onDone when Stripe says succeeded/processing. */
export function StripePaymentForm(props: {
  clientSecret: string;
  publishableKey: string;
  onDone: () => void;
}) {
  const { container, stripe, error } = useStripeCard(props.publishableKey);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const pay = async () => {
    if (!stripe) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await stripe.js.confirmCardPayment(props.clientSecret, {
        payment_method: { card: stripe.card },
      });
      const status = answer.paymentIntent?.status;
      if (status === 'succeeded' || status === 'processing') props.onDone();
      else setProblem(answer.error?.message ?? 'The payment was not completed. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      component="form"
      aria-label="Card payment"
      onSubmit={(e) => (e.preventDefault(), void pay())}
    >
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Box ref={container} data-testid="stripe-card" sx={{ my: 2, minHeight: 48 }} />
      {!stripe && !error ? <CircularProgress size={24} aria-label="Loading the card form" /> : null}
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" disabled={!stripe || busy}>
        {busy ? 'Paying…' : 'Pay'}
      </Button>
    </Box>
  );
}

/** Sends the browser to PayPal's approve page (the panel's return route completes it server-side). */
export function PaypalPayButton(props: { approveUrl: string }) {
  return (
    <Stack direction="row">
      <Button variant="contained" color="primary" href={props.approveUrl}>
        Pay with PayPal
      </Button>
    </Stack>
  );
}
