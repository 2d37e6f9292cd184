import { Stack, Typography } from '@mui/material';

/** A numbered list of what happens next, as the connect pages explain it. */
export function ConnectSteps({ steps }: { steps: readonly string[] }) {
  return (
    <Stack component="ol" spacing={1.5} sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {steps.map((step, index) => (
        <Stack
          component="li"
          key={step}
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'baseline' }}
        >
          <Typography
            component="span"
            variant="caption"
            sx={{
              width: 24,
              height: 24,
              borderRadius: '50%',
              bgcolor: 'action.selected',
              display: 'inline-grid',
              placeItems: 'center',
              fontWeight: 600,
              flexShrink: 0,
            }}
          >
            {index + 1}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {step}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
