import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Grid,
  Skeleton,
  Stack,
  TableCell,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EmptyState } from '../../src/generic/EmptyState';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { minorToDecimal } from '../payments/api';
import { money } from './parts';
import type { RevenueOverview } from './revenueSchemas';

const MONTH_WORDS = new Intl.DateTimeFormat('en', {
  month: 'short',
  year: '2-digit',
  timeZone: 'UTC',
});
const monthLabel = (month: string) => MONTH_WORDS.format(new Date(`${month}-01T00:00:00Z`));

/** One figure: a label over its value. */
function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** Paid subscriptions ended this month, and their share of those paid at its start. */
function churnWords(churn: RevenueOverview['churn']): string {
  const ended = churn.months.at(-1)?.ended ?? 0;
  const base = churn.active_paid + ended;
  return base ? `${ended} (${Math.round((1000 * ended) / base) / 10} %)` : '0';
}

/** The revenue of one currency over 12 months, as bars (the chart is lazy: recharts). */
function RevenueChart({ series }: { series: RevenueOverview['revenue'][number] }) {
  const data = series.months.map((m) => ({
    month: monthLabel(m.month),
    // recharts draws numbers: the decimal of the exact minor units, for the bar's height only.
    revenue: Number(minorToDecimal(m.revenue_minor, series.currency)),
    label: money(m.revenue_minor, series.currency),
  }));
  return (
    <Box
      component="section"
      sx={{ height: 240 }}
      aria-label={`Revenue per month in ${series.currency}`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} />
          <YAxis tick={{ fontSize: 12 }} width={64} />
          <Tooltip
            formatter={(_value, _name, item) => [
              (item.payload as { label: string }).label,
              'Revenue',
            ]}
          />
          <Bar dataKey="revenue" name="Revenue" fill="#1976d2" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </Box>
  );
}

/** The admin dashboard's revenue card (`GET admin/revenue`). */
export default function AdminRevenue() {
  const dp = useStackdeckData();
  const query = useQuery({
    queryKey: ['billing-admin', 'revenue-overview'],
    queryFn: ({ signal }) => dp.action<RevenueOverview>('billing-admin', 'revenue', { signal }),
  });
  const [picked, setPicked] = useState<string | null>(null);
  const data = query.data;
  const series = data?.revenue.find((s) => s.currency === picked) ?? data?.revenue[0];

  let body;
  if (query.isPending) body = <Skeleton variant="rounded" height={240} />;
  else if (query.error || !data)
    body = (
      <Alert severity="error">
        {errorMessage(query.error, 'The revenue could not be loaded.')}
      </Alert>
    );
  else
    body = (
      <Stack spacing={3}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 6, md: 3 }}>
            <Figure
              label="MRR"
              testId="revenue-mrr"
              value={
                data.mrr.length
                  ? data.mrr.map((m) => money(m.mrr_minor, m.currency)).join(', ')
                  : money(0, data.currency)
              }
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Figure
              label="Open invoices"
              testId="revenue-open"
              value={
                data.open_invoices.length
                  ? data.open_invoices
                      .map((o) => `${money(o.total_minor, o.currency)} (${o.count})`)
                      .join(', ')
                  : 'None'
              }
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Figure label="Past due" testId="revenue-past-due" value={String(data.past_due)} />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Figure label="Unpaid" testId="revenue-unpaid" value={String(data.unpaid)} />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <Figure
              label="Churn, this month"
              testId="revenue-churn"
              value={churnWords(data.churn)}
            />
          </Grid>
        </Grid>
        {series ? (
          <Box>
            <Stack
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}
            >
              <Typography variant="subtitle2" component="h3">
                Last 12 months: {money(series.total_minor, series.currency)} (paid invoices less
                credit notes, tax included)
              </Typography>
              {data.revenue.length > 1 ? (
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={series.currency}
                  onChange={(_e, value: string | null) => value && setPicked(value)}
                  aria-label="Currency"
                >
                  {data.revenue.map((s) => (
                    <ToggleButton key={s.currency} value={s.currency}>
                      {s.currency}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              ) : null}
            </Stack>
            <RevenueChart series={series} />
          </Box>
        ) : (
          <EmptyState
            icon={PaidOutlined}
            title="No revenue yet"
            text="Paid invoices appear here month by month, less their credit notes."
          />
        )}
        <QueryTable
          query={{ isPending: false, error: null, data: data.plans }}
          failed="The subscriptions could not be loaded."
          empty="No active subscription yet."
          label="Active subscriptions per plan"
          columns={['Plan', { label: 'Active subscriptions', align: 'right' }]}
        >
          {(rows) =>
            rows.map((p) => (
              <TableRow key={p.plan_id}>
                <TableCell>{p.plan_name}</TableCell>
                <TableCell align="right">{p.active}</TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </Stack>
    );

  return (
    <Box sx={{ mt: 4 }}>
      <SectionCard
        id="admin-dashboard-revenue"
        title="Revenue"
        icon={PaidOutlined}
        aside={
          <Button component={RouterLink} to="/admin/invoices" startIcon={<ReceiptLongOutlined />}>
            Invoices
          </Button>
        }
      >
        {body}
      </SectionCard>
    </Box>
  );
}
