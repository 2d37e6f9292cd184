import { Box, LinearProgress, Typography } from '@mui/material';
import type { Report } from '../../../resources/agent/protocol';
import { liveFigures } from './liveFigures';

/** Load, memory and disk of a connected server as its agent last reported them, live. */
export function ServerLiveFigures({ report }: { report: Report }) {
  return (
    <Box
      data-testid="card-live"
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 1.5, mt: 1.5 }}
    >
      {liveFigures(report).map((figure) => (
        <Box key={figure.id} data-testid={`card-${figure.id}`} sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="div">
            {figure.label}
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {figure.value}
          </Typography>
          {figure.gauge !== undefined ? (
            <LinearProgress
              variant="determinate"
              value={figure.gauge}
              aria-label={`${figure.label} used`}
              sx={{ mt: 0.5, height: 4, borderRadius: 2 }}
            />
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
