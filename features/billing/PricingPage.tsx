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
  List,
  ListItem,
  MenuItem,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { Plan } from '../plans/api';
import { money } from './parts';
import type { SubscriptionView } from './schemas';

/** "Unlimited servers", "1 server", "5 servers", "No team members". */
const limit = (n: number | null, one: string, many: string) =>
  n === null ? `Unlimited ${many}` : n === 0 ? `No ${many}` : `${n} ${n === 1 ? one : many}`;

/** What a year billed annually saves against twelve monthly invoices (0 when nothing). */
const annualSaving = (plan: Plan) => Math.max(0, plan.monthly_price * 12 - plan.annual_price);

/** /pricing: the plans offered, monthly or annual, and subscribing to one. */
const PAY_TYPE_LABELS = { manual: 'Bank transfer', card: 'Card', paypal: 'PayPal' } as const;

export default function PricingPage() {
  const dp = useStackdeckData();
  const navigate = useNavigate();
  const [type, setType] = useState<'monthly' | 'annual'>('monthly');
  const [chosenPayType, setPayType] = useState<'manual' | 'card' | 'paypal' | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const plans = useQuery({
    queryKey: ['plans', 'offered'],
    queryFn: ({ signal }) => dp.action<{ data: Plan[] }>('plans', 'offered', { signal }),
  });
  const view = useQuery({
    queryKey: ['billing', 'subscription'],
    queryFn: ({ signal }) => dp.action<SubscriptionView>('billing', 'subscription', { signal }),
  });

  if (plans.isPending || view.isPending) return <CircularProgress aria-label="Loading plans" />;
  if (plans.error || !plans.data)
    return <Alert severity="error">{errorMessage(plans.error)}</Alert>;
  const mains = plans.data.data.filter((p) => p.kind === 'main');
  // Only the ways this panel offers now; the first is the default.
  const payTypes = view.data?.pay_types ?? ['manual'];
  const payType =
    chosenPayType && payTypes.includes(chosenPayType) ? chosenPayType : (payTypes[0] ?? 'manual');
  // The best saving in percent, said next to the interval toggle.
  const bestSaving = Math.max(
    0,
    ...mains
      .filter((p) => p.monthly_price > 0)
      .map((p) => Math.floor((annualSaving(p) * 100) / (p.monthly_price * 12))),
  );
  const current = view.data?.plan_id;
  // A plan chosen but not paid yet: its card leads to the open invoice instead of a second order.
  const waiting =
    view.data?.subscription?.status === 'incomplete' && view.data.open_invoice
      ? { planId: view.data.subscription.plan_id, invoiceId: view.data.open_invoice.id }
      : null;

  const choose = async (plan: Plan) => {
    setBusy(plan.id);
    setProblem(null);
    try {
      const result = await dp.action<{ invoice: { id: number } | null }>('billing', 'subscribe', {
        query: { plan_id: plan.id, type, pay_type: payType },
      });
      navigate(result.invoice ? `/payment/${result.invoice.id}` : '/subscription');
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box>
      <PageHeader
        title="Pricing"
        description="Pick a plan. A paid plan starts once its first invoice is paid."
      />
      <Box sx={{ display: 'flex', gap: 2, mb: 3, flexWrap: 'wrap', alignItems: 'center' }}>
        <ToggleButtonGroup
          exclusive
          value={type}
          onChange={(_, v: 'monthly' | 'annual' | null) => v && setType(v)}
          aria-label="Billing interval"
        >
          <ToggleButton value="monthly">Monthly</ToggleButton>
          <ToggleButton value="annual">Annual</ToggleButton>
        </ToggleButtonGroup>
        {bestSaving > 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="annual-saving">
            Annual billing saves up to {bestSaving} %
          </Typography>
        )}
        <TextField
          select
          size="small"
          label="Pay by"
          value={payType}
          onChange={(e) => setPayType(e.target.value as 'manual' | 'card' | 'paypal')}
          sx={{ minWidth: 180 }}
        >
          {payTypes.map((p) => (
            <MenuItem key={p} value={p}>
              {PAY_TYPE_LABELS[p]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      )}
      {mains.length === 0 && (
        <EmptyState
          icon={WorkspacePremiumOutlined}
          title="No plans are offered yet"
          text="Once an admin offers plans, they are listed here."
        />
      )}
      <Grid container spacing={2}>
        {mains.map((plan) => {
          const price = type === 'annual' ? plan.annual_price : plan.monthly_price;
          const isCurrent = plan.id === current;
          return (
            <Grid key={plan.id} size={{ xs: 12, md: 4 }}>
              <Card
                variant="outlined"
                component="article"
                aria-labelledby={`plan-${plan.id}-name`}
                sx={{ height: '100%' }}
                data-testid={`plan-${plan.id}`}
              >
                <CardContent>
                  <Typography variant="h6" component="h2" id={`plan-${plan.id}-name`}>
                    {plan.name}
                  </Typography>
                  <Typography variant="h4" sx={{ my: 1 }}>
                    {price === 0 ? 'Free' : money(price, plan.currency)}
                  </Typography>
                  {price > 0 && (
                    <Typography variant="body2" color="text.secondary">
                      {type === 'annual' ? 'per year' : 'per month'}
                    </Typography>
                  )}
                  {type === 'annual' && annualSaving(plan) > 0 && (
                    <Typography variant="body2" color="success.main" sx={{ fontWeight: 600 }}>
                      Save {money(annualSaving(plan), plan.currency)} a year
                    </Typography>
                  )}
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    {plan.description}
                  </Typography>
                  <List dense>
                    <ListItem>{limit(plan.max_servers, 'server', 'servers')}</ListItem>
                    <ListItem>{limit(plan.max_webapps, 'web app', 'web apps')}</ListItem>
                    <ListItem>
                      {plan.backup_storage_gb === null
                        ? 'Unlimited backup storage'
                        : `${plan.backup_storage_gb} GB backup storage`}
                    </ListItem>
                    <ListItem>
                      {limit(plan.max_team_members, 'team member', 'team members')}
                    </ListItem>
                  </List>
                </CardContent>
                <CardActions>
                  {waiting?.planId === plan.id ? (
                    <Button
                      component={RouterLink}
                      to={`/payment/${waiting.invoiceId}`}
                      variant="contained"
                      color="warning"
                    >
                      Pay for {plan.name}
                    </Button>
                  ) : (
                    <Button
                      variant={isCurrent ? 'outlined' : 'contained'}
                      disabled={isCurrent || busy !== null}
                      onClick={() => void choose(plan)}
                    >
                      {isCurrent ? 'Your plan' : `Choose ${plan.name}`}
                    </Button>
                  )}
                </CardActions>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </Box>
  );
}
