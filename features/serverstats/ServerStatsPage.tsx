import { Alert, Box, Grid, LinearProgress, ToggleButton, ToggleButtonGroup } from '@mui/material';
import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import { useQuery } from '@tanstack/react-query';
import { type ComponentProps, useState } from 'react';
import type { StatSample } from '../../resources/servers';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { formatBytes, formatRate } from '../../src/pages/servers/format';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { StatsChart } from './StatsChart';

type Range = 'day' | 'month';
const percent = (value: number) => `${Math.round(value * 10) / 10}%`;

/** A chart of the page: what StatsChart draws, less the range and samples; wide takes a row. */
type Chart = Omit<ComponentProps<typeof StatsChart>, 'range' | 'data'> & { wide?: boolean };

/** Used against total, in bytes (memory, disk). */
const usedOfTotal = (id: string, title: string, prefix: string, color: string): Chart => ({
  id,
  title,
  series: [
    { key: `${prefix}_used`, name: 'Used', color },
    { key: `${prefix}_total`, name: 'Total', color: '#9e9e9e' },
  ],
  format: (value) => formatBytes(value, 1),
  // One decimal: the axis's round steps are decimal, the units binary (2.5e9 bytes is 2.3 GB).
  axisFormat: (value) => formatBytes(value, 1),
});

const CHARTS: Chart[] = [
  {
    id: 'chart-cpu',
    title: 'CPU usage',
    series: [{ key: 'cpu', name: 'CPU', color: '#1976d2' }],
    format: percent,
    bounds: [0, 100],
  },
  {
    id: 'chart-load',
    title: 'Load (1 min)',
    series: [{ key: 'load', name: 'Load', color: '#9c27b0' }],
    format: (value) => value.toFixed(2),
  },
  usedOfTotal('chart-memory', 'Memory', 'memory', '#2e7d32'),
  usedOfTotal('chart-disk', 'Disk (/)', 'disk', '#ed6c02'),
  {
    id: 'chart-network',
    title: 'Network',
    series: [
      { key: 'rx_rate', name: 'In', color: '#0288d1' },
      { key: 'tx_rate', name: 'Out', color: '#d32f2f' },
    ],
    format: formatRate,
    axisFormat: (value) => `${formatBytes(value, 0)}/s`,
    wide: true,
  },
];

/**
 * /server-stats/{id}: the history the panel keeps (minute samples for a day, half-hour samples
 * for 30 days). Its own lazy chunk: recharts loads with this page only.
 */
export default function ServerStatsPage() {
  const { sid } = useServerPage();
  const dp = useStackdeckData();
  const [range, setRange] = useState<Range>('day');
  const { data, error, isPending, isFetching } = useQuery({
    queryKey: ['servers', 'stats', sid, range],
    queryFn: ({ signal }) =>
      dp.action<{ data: StatSample[] }>('servers', 'stats', {
        params: { sid },
        query: { range },
        signal,
      }),
    refetchInterval: range === 'day' ? 60_000 : false,
  });
  const samples = (data?.data ?? []) as unknown as Record<string, number>[];

  return (
    <Box>
      <PageHeader
        title="Statistics"
        description="CPU, load, memory, disk and network over time."
        actions={
          <ToggleButtonGroup
            exclusive
            size="small"
            value={range}
            onChange={(_, next: Range | null) => next && setRange(next)}
            aria-label="Time range"
          >
            <ToggleButton value="day">24 hours</ToggleButton>
            <ToggleButton value="month">30 days</ToggleButton>
          </ToggleButtonGroup>
        }
      />
      {isFetching ? <LinearProgress aria-label="Loading statistics" sx={{ mb: 2 }} /> : null}
      {error ? (
        <Alert severity="error">{errorMessage(error, 'The statistics could not be loaded.')}</Alert>
      ) : null}
      {!isPending && !error && samples.length === 0 ? (
        <EmptyState
          icon={QueryStatsOutlined}
          title="No history yet"
          text={
            range === 'day'
              ? "Minute samples are kept from the server's reports: the first appears a minute after it reports."
              : 'Half-hour samples are kept for 30 days: the first appears half an hour after the server reports.'
          }
        />
      ) : null}
      {samples.length > 0 ? (
        <Grid container spacing={2}>
          {CHARTS.map(({ wide, ...chart }) => (
            <Grid key={chart.id} size={wide ? { xs: 12 } : { xs: 12, md: 6 }}>
              <StatsChart {...chart} range={range} data={samples} />
            </Grid>
          ))}
        </Grid>
      ) : null}
    </Box>
  );
}
