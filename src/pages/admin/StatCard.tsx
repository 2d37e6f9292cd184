import type { ComponentType } from 'react';
import { Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { SvgIconProps } from '@mui/material';

interface StatCardProps {
  label: string;
  value: number | undefined;
  icon: ComponentType<SvgIconProps>;
  color: 'primary' | 'success' | 'info' | 'secondary';
}

/** One figure of the admin dashboard; `value` undefined while loading. */
export function StatCard({ label, value, icon: Icon, color }: StatCardProps) {
  const id = `stat-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={id} sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
          <Box>
            <Typography id={id} variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
              {label}
            </Typography>
            <Typography variant="h4" component="p" sx={{ fontWeight: 700, mt: 0.5 }} data-stat={id}>
              {value === undefined ? <Skeleton width={56} /> : value.toLocaleString()}
            </Typography>
          </Box>
          <Box
            sx={{
              width: 44,
              height: 44,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: `${color}.main`,
              color: `${color}.contrastText`,
              opacity: 0.9,
            }}
          >
            <Icon />
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
