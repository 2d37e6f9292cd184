import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { useParams } from 'react-router-dom';
import type { PaymentMethod } from './resource';
import { useStripeCard } from './stripeJs';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';

interface MethodsList {
  data: PaymentMethod[];
  total: number;
  gateways: Array<'stripe' | 'paypal'>;
}
interface SetupStarted {
  setup_ref: string;
  client_secret: string | null;
  publishable_key: string | null;
  approve_url: string | null;
}

/** The PayPal setup under way while the buyer is at PayPal (the page is left and loaded again). */
const PAYPAL_SETUP = 'stackdeck-paypal-setup';

const describe = (m: PaymentMethod) =>
  m.is_paypal
    ? `PayPal${m.email ? ` (${m.email})` : ''}`
    : `${m.brand.charAt(0).toUpperCase()}${m.brand.slice(1)} ending in ${m.last4}`;
const expiry = (m: PaymentMethod) =>
  m.exp_month && m.exp_year ? `${String(m.exp_month).padStart(2, '0')}/${m.exp_year}` : '—';

/** The card form of a SetupIntent: Stripe.js confirms it, the panel then asks Stripe. */
function CardSetup(props: { setup: SetupStarted; onSaved: () => void; onCancel: () => void }) {
  const dp = useStackdeckData();
  const { container, stripe, error } = useStripeCard(props.setup.publishable_key);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = async () => {
    if (!stripe || !props.setup.client_secret) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await stripe.js.confirmCardSetup(props.setup.client_secret, {
        payment_method: { card: stripe.card },
      });
      if (answer.error || answer.setupIntent?.status !== 'succeeded') {
        setProblem(answer.error?.message ?? 'The card was not saved. Try again.');
        return;
      }
      await dp.action('payment-methods', 'complete', {
        body: { setup_ref: props.setup.setup_ref },
      });
      props.onSaved();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      component="form"
      aria-label="Add a card"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      sx={{ mt: 2 }}
    >
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Box ref={container} data-testid="stripe-card" sx={{ my: 2, minHeight: 48 }} />
      {!stripe && !error ? <CircularProgress size={24} aria-label="Loading the card form" /> : null}
      {problem ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={!stripe || busy}>
          {busy ? 'Saving…' : 'Save card'}
        </Button>
        <Button onClick={props.onCancel} disabled={busy}>
          Cancel
        </Button>
      </Stack>
    </Box>
  );
}

/** /recharge-payment-method/{id}: the saved cards and PayPal accounts; add, make default, remove. */
export default function RechargePaymentMethodPage() {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { id } = useParams();
  const params = id && /^\d+$/.test(id) ? { uid: id } : undefined;
  const [cardSetup, setCardSetup] = useState<SetupStarted | null>(null);
  const [removing, setRemoving] = useState<PaymentMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: ['payment-methods', params?.uid ?? 'me'],
    queryFn: ({ signal }) => dp.action<MethodsList>('payment-methods', 'list', { params, signal }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['payment-methods'] });

  // Back from PayPal: the panel asks PayPal what was approved and saves it.
  const returned = useRef(false);
  useEffect(() => {
    if (returned.current) return;
    returned.current = true;
    const search = new URLSearchParams(window.location.search);
    const outcome = search.get('paypal');
    if (!outcome) return;
    const setupRef = sessionStorage.getItem(PAYPAL_SETUP) ?? search.get('approval_token_id');
    sessionStorage.removeItem(PAYPAL_SETUP);
    window.history.replaceState(null, '', window.location.pathname);
    if (outcome !== 'approved' || !setupRef) {
      if (outcome === 'cancelled') notify('Adding PayPal was cancelled.', { type: 'info' });
      return;
    }
    dp.action('payment-methods', 'complete', { params, body: { setup_ref: setupRef } })
      .then(() => {
        notify('Your PayPal account was saved.', { type: 'success' });
        return refresh();
      })
      .catch((e: unknown) => setProblem(errorMessage(e)));
    // Once, on the page's first load (the ref keeps React's second effect run out).
  }, []);

  const start = async (gateway: 'stripe' | 'paypal') => {
    setBusy(true);
    setProblem(null);
    try {
      const setup = await dp.action<SetupStarted>('payment-methods', 'start', {
        params,
        body: { gateway },
      });
      if (gateway === 'paypal' && setup.approve_url) {
        sessionStorage.setItem(PAYPAL_SETUP, setup.setup_ref);
        window.location.assign(setup.approve_url);
        return;
      }
      setCardSetup(setup);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const makeDefault = async (m: PaymentMethod) => {
    setProblem(null);
    try {
      await dp.action('payment-methods', 'setDefault', {
        params: { ...params, pmId: m.id },
        query: { default: 'true' },
      });
      notify(`${describe(m)} is now the default.`, { type: 'success' });
      await refresh();
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };

  const remove = async () => {
    const m = removing;
    if (!m) return;
    setBusy(true);
    try {
      await dp.action('payment-methods', 'remove', { params: { ...params, pmId: m.id } });
      notify(`${describe(m)} was removed.`, { type: 'success' });
      setRemoving(null);
      await refresh();
    } catch (e) {
      setProblem(errorMessage(e));
      setRemoving(null);
    } finally {
      setBusy(false);
    }
  };

  if (isPending) return <CircularProgress aria-label="Loading payment methods" />;
  if (error || !data) return <Alert severity="error">{errorMessage(error)}</Alert>;
  const canCard = data.gateways.includes('stripe');
  const canPaypal = data.gateways.includes('paypal');
  return (
    <Box>
      <PageHeader
        title="Payment methods"
        description="The cards and PayPal accounts your renewals are charged to. The default one is charged first."
      />
      <SectionCard id="payment-methods" title="Saved payment methods" icon={CreditCardOutlined}>
        {problem ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {problem}
          </Alert>
        ) : null}
        {data.total === 0 ? (
          <EmptyState
            icon={CreditCardOutlined}
            title="No payment method yet"
            text="Add a card or a PayPal account to renew your plan without paying each invoice by hand."
          />
        ) : (
          <Table aria-label="Saved payment methods" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Method</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell />
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.data.map((m) => (
                <TableRow key={m.id}>
                  <TableCell>{describe(m)}</TableCell>
                  <TableCell>{expiry(m)}</TableCell>
                  <TableCell>
                    {m.is_default ? <Chip size="small" color="primary" label="Default" /> : null}
                  </TableCell>
                  <TableCell align="right">
                    {!m.is_default ? (
                      <Button size="small" onClick={() => void makeDefault(m)}>
                        Make default
                      </Button>
                    ) : null}
                    <Button
                      size="small"
                      color="error"
                      onClick={() => setRemoving(m)}
                      aria-label={`Remove ${describe(m)}`}
                    >
                      Remove
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {!canCard && !canPaypal ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            Card and PayPal payments are not set up on this panel. Pay your invoices by bank
            transfer, or ask the administrator.
          </Alert>
        ) : null}
        {cardSetup ? (
          <CardSetup
            setup={cardSetup}
            onCancel={() => setCardSetup(null)}
            onSaved={() => {
              setCardSetup(null);
              notify('Your card was saved.', { type: 'success' });
              void refresh();
            }}
          />
        ) : (
          <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
            {canCard ? (
              <Button variant="contained" disabled={busy} onClick={() => void start('stripe')}>
                Add a card
              </Button>
            ) : null}
            {canPaypal ? (
              <Button variant="outlined" disabled={busy} onClick={() => void start('paypal')}>
                Add PayPal
              </Button>
            ) : null}
          </Stack>
        )}
      </SectionCard>
      <Dialog open={removing !== null} onClose={() => setRemoving(null)}>
        <DialogTitle>Remove this payment method?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {removing ? describe(removing) : ''} will be removed here and at the payment provider.
            {removing?.is_default && data.total > 1
              ? ' Another saved method becomes the default.'
              : ''}
            {removing?.is_default && data.total === 1
              ? ' Renewals will then wait for you to pay each invoice.'
              : ''}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)} autoFocus>
            Cancel
          </Button>
          <Button color="error" onClick={() => void remove()} disabled={busy}>
            {busy ? 'Removing…' : 'Remove'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
