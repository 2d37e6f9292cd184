import { Box, Typography } from '@mui/material';
import { useMemo } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { type AxisBounds, axisTicks, fitDomain } from './chartDomain';
import { timeAxis } from './timeTicks';

export interface Series {
  key: string;
  name: string;
  color: string;
}

interface Props {
  id: string;
  title: string;
  data: Record<string, number>[];
  series: Series[];
  format: (value: number) => string;
  /** Shorter labels for the axis ticks (defaults to `format`). */
  axisFormat?: (value: number) => string;
  /** The range asked for; the axis follows the samples' own span. */
  range: 'day' | 'month';
  /** Where the value axis may never go; within them it fits the samples shown. */
  bounds?: AxisBounds;
}

/** One history chart: time along the bottom, one filled line per series. */
export function StatsChart({ id, title, data, series, format, axisFormat, bounds }: Props) {
  // Ticks fit the samples' span: hours over a day, dates over 30 days, no label twice.
  const first = data[0]?.at ?? 0;
  const last = data.at(-1)?.at ?? first;
  const axis = useMemo(() => timeAxis(first, last, 6), [first, last]);
  const valueDomain = useMemo(
    () =>
      fitDomain(
        data,
        series.map((s) => s.key),
        bounds,
      ),
    [data, series, bounds],
  );
  return (
    <Box
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, border: 1, borderColor: 'divider', borderRadius: 2 }}
    >
      <Typography id={id} variant="subtitle2" component="h2" sx={{ mb: 1, fontWeight: 600 }}>
        {title}
      </Typography>
      <Box sx={{ height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={[first, last]}
              ticks={axis.ticks}
              tickFormatter={axis.format}
              interval="preserveStartEnd"
              minTickGap={4}
              fontSize={12}
            />
            <YAxis
              tickFormatter={axisFormat ?? format}
              width={84}
              fontSize={12}
              domain={valueDomain}
              ticks={axisTicks(valueDomain)}
              allowDataOverflow
            />
            <Tooltip
              labelFormatter={(at) => new Date(Number(at) * 1000).toLocaleString()}
              formatter={(value) => format(Number(value))}
            />
            {series.length > 1 ? <Legend /> : null}
            {series.map((s) => (
              <Area
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={s.name}
                stroke={s.color}
                fill={s.color}
                fillOpacity={0.15}
                isAnimationActive={false}
                dot={false}
              />
            ))}
          </AreaChart>
        </ResponsiveContainer>
      </Box>
    </Box>
  );
}
