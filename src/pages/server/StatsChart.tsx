import { Box, Typography } from '@mui/material';
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
  range: 'day' | 'month';
  domain?: [number, number];
}

const timeLabel = (range: 'day' | 'month') => (at: number) =>
  range === 'day'
    ? new Date(at * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : new Date(at * 1000).toLocaleDateString([], { month: 'short', day: 'numeric' });

/** One history chart: time along the bottom, one filled line per series. */
export function StatsChart({ id, title, data, series, format, axisFormat, range, domain }: Props) {
  const label = timeLabel(range);
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
            <XAxis dataKey="at" tickFormatter={label} minTickGap={40} fontSize={12} />
            <YAxis
              tickFormatter={axisFormat ?? format}
              width={84}
              fontSize={12}
              domain={domain ?? [0, 'auto']}
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
