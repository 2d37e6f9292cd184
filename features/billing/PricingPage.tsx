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
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { Plan } from '../plans/api';
import { money } from './parts';
import type { SubscriptionView } from './schemas';

const limit = (n: number | null, what: string) =>
  n === null ? `Unlimited ${what}` : `${n} ${what}`;

/** /pricing: the plans offered, monthly or annual, and subscribing to one. */
export default function PricingPage() {
  const dp = useStackdeckData();
  const navigate = useNavigate();
  const [type, setType] = useState<'monthly' | 'annual'>('monthly');
  const [payType, setPayType] = useState<'manual' | 'card' | 'paypal'>('manual');
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
  const current = view.data?.plan_id;

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
        <TextField
          select
          size="small"
          label="Pay by"
          value={payType}
          onChange={(e) => setPayType(e.target.value as 'manual' | 'card' | 'paypal')}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="manual">Bank transfer</MenuItem>
          <MenuItem value="card">Card</MenuItem>
          <MenuItem value="paypal">PayPal</MenuItem>
        </TextField>
      </Box>
      {problem && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      )}
      <Grid container spacing={2}>
        {mains.map((plan) => {
          const price = type === 'annual' ? plan.annual_price : plan.monthly_price;
          const isCurrent = plan.id === current;
          return (
            <Grid key={plan.id} size={{ xs: 12, md: 4 }}>
              <Card variant="outlined" sx={{ height: '100%' }} data-testid={`plan-${plan.id}`}>
                <CardContent>
                  <Typography variant="h6" component="h2">
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
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    {plan.description}
                  </Typography>
                  <List dense>
                    <ListItem>{limit(plan.max_servers, 'servers')}</ListItem>
                    <ListItem>{limit(plan.max_webapps, 'web apps')}</ListItem>
                    <ListItem>{limit(plan.backup_storage_gb, 'GB backup storage')}</ListItem>
                    <ListItem>{limit(plan.max_team_members, 'team members')}</ListItem>
                  </List>
                </CardContent>
                <CardActions>
                  <Button
                    variant={isCurrent ? 'outlined' : 'contained'}
                    disabled={isCurrent || busy !== null}
                    onClick={() => void choose(plan)}
                  >
                    {isCurrent ? 'Your plan' : `Choose ${plan.name}`}
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
