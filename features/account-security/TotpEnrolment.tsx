import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { User, UserUpdate } from '../../resources/user-profile';
import type { totpEnrolment } from '../../resources/user-security';
import { CopyButton } from '../../src/generic/CopyButton';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { CodeForm } from './CodeForm';

type Enrolment = z.infer<typeof totpEnrolment>;

interface Props {
  save: (data: UserUpdate) => Promise<User>;
  onDone: () => void;
}

/** Scan the QR code (or type the key), then prove it with one code from the app. */
export function TotpEnrolment({ save, onDone }: Props) {
  const dataProvider = useStackdeckData();
  // A new secret per visit; it only takes effect once a code from it is confirmed.
  const { data, error, isPending } = useQuery({
    queryKey: ['user-security', 'totpEnrol'],
    queryFn: () => dataProvider.action<Enrolment>('user-security', 'totpEnrol'),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });

  if (isPending) return <CircularProgress size={28} aria-label="Preparing the QR code" />;
  if (error || !data) {
    return <Alert severity="error">{errorMessage(error, 'Enrolment could not start.')}</Alert>;
  }
  return (
    <Stack spacing={2}>
      <Typography variant="body2">
        1. Scan the code with an authenticator app (Google Authenticator, 1Password, Aegis…).
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Box
          component="img"
          src={data.qr}
          alt="QR code to add Stackdeck to your authenticator app"
          sx={{ width: 160, height: 160, border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}
        />
        <Box sx={{ minWidth: 0, flex: '1 1 180px' }}>
          <Typography variant="body2" color="text.secondary">
            Cannot scan? Enter this key instead:
          </Typography>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <Typography
              data-testid="totp-secret"
              sx={{ fontFamily: 'monospace', wordBreak: 'break-all', fontWeight: 600 }}
            >
              {data.secret}
            </Typography>
            <CopyButton value={data.secret} label="Copy the key" />
          </Stack>
        </Box>
      </Stack>
      <Typography variant="body2">2. Enter the 6-digit code the app shows.</Typography>
      <CodeForm
        label="Code from the app"
        submitLabel="Turn on"
        success="Two-factor sign-in is on"
        onCancel={onDone}
        onCode={async (values) => {
          await save({ two_factor: true, two_factor_method: 'totp', ...values });
          onDone();
        }}
      />
    </Stack>
  );
}
