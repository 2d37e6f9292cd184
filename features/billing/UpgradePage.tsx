import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CircularProgress,
  Grid,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { Plan } from '../plans/api';
import { priceFor, prorate } from './arithmetic';
import { INTERVAL_WORDS, money } from './parts';
import type { SubscriptionView } from './schemas';

/** /subscribe-to-higher-plan: the higher plans and what moving to each costs now (prorated). */
export default function UpgradePage() {
  const dp = useStackdeckData();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const plans = useQuery({
    queryKey: ['plans', 'offered'],
    queryFn: ({ signal }) => dp.action<{ data: Plan[] }>('plans', 'offered', { signal }),
  });
  const view = useQuery({
    queryKey: ['billing', 'subscription'],
    queryFn: ({ signal }) => dp.action<SubscriptionView>('billing', 'subscription', { signal }),
  });
  if (plans.isPending || view.isPending) return <CircularProgress aria-label="Loading plans" />;
  if (plans.error || view.error || !plans.data || !view.data)
    return <Alert severity="error">{errorMessage(plans.error ?? view.error)}</Alert>;
  const sub = view.data.subscription;
  const current = plans.data.data.find((p) => p.id === sub?.plan_id);
  if (!sub || sub.status !== 'active' || !current || !sub.current_period_end)
    return (
      <Box>
        <PageHeader title="Upgrade" />
        <Alert severity="info">
          Upgrades are for an active paid subscription.{' '}
          <RouterLink to="/pricing">See the plans</RouterLink>.
        </Alert>
      </Box>
    );
  const now = new Date().toISOString();
  const higher = plans.data.data.filter(
    (p) => p.kind === 'main' && p.monthly_price > current.monthly_price,
  );
  const upgrade = async (plan: Plan) => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await dp.action<{ invoice: { id: number } | null }>('billing', 'subscribe', {
        query: {
          plan_id: plan.id,
          type: sub.interval === 'year' ? 'annual' : 'monthly',
          pay_type: sub.pay_type,
        },
      });
      navigate(result.invoice ? `/payment/${result.invoice.id}` : '/subscription');
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box>
      <PageHeader
        title="Upgrade your plan"
        description={`You are on ${current.name} (${INTERVAL_WORDS[sub.interval]}) until ${formatDate(sub.current_period_end)}. An upgrade is charged now for the rest of the period, less what is left of your current plan, and takes effect once paid.`}
      />
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      )}
      {higher.length === 0 && <Alert severity="info">You are on the highest plan.</Alert>}
      <Grid container spacing={2}>
        {higher.map((plan) => {
          const p = prorate({
            oldPriceMinor: priceFor(current, sub.interval),
            newPriceMinor: priceFor(plan, sub.interval),
            periodStart: sub.current_period_start ?? now,
            periodEnd: sub.current_period_end ?? now,
            at: now,
            sameInterval: true,
            newInterval: sub.interval,
          });
          return (
            <Grid key={plan.id} size={{ xs: 12, md: 6 }}>
              <Card variant="outlined">
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {plan.name}
                  </Typography>
                  <Typography>
                    {money(priceFor(plan, sub.interval), plan.currency)} per{' '}
                    {sub.interval === 'year' ? 'year' : 'month'}
                  </Typography>
                  <Typography sx={{ mt: 1 }} data-testid={`due-now-${plan.id}`}>
                    Due now: <strong>{money(p.dueMinor, plan.currency)}</strong> (
                    {money(p.chargeMinor, plan.currency)} less {money(p.creditMinor, plan.currency)}{' '}
                    unused)
                  </Typography>
                </CardContent>
                <CardActions>
                  <Button variant="contained" disabled={busy} onClick={() => void upgrade(plan)}>
                    Upgrade to {plan.name}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </Box>
  );
}
