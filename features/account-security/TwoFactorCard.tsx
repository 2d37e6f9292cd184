import { useState } from 'react';
import { Button, Chip, Stack, Typography } from '@mui/material';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import PhonelinkLockOutlined from '@mui/icons-material/PhonelinkLockOutlined';
import SecurityOutlined from '@mui/icons-material/SecurityOutlined';
import type { User, UserUpdate } from '../../resources/user-profile';
import { SectionCard } from '../../src/generic/SectionCard';
import { ActingNotice } from '../../src/pages/account/ActingNotice';
import { DisableTwoFactor } from './DisableTwoFactor';
import { EmailEnrolment } from './EmailEnrolment';
import { TotpEnrolment } from './TotpEnrolment';

interface Props {
  user: User;
  save: (data: UserUpdate) => Promise<User>;
  acting: boolean;
}

const METHOD_NAMES = { totp: 'authenticator app', email: 'emailed code' } as const;

/** Two-factor sign-in (spec: toggled via a user update): enrol by app or by mail, or turn off. */
export function TwoFactorCard({ user, save, acting }: Props) {
  const [enrolling, setEnrolling] = useState<'totp' | 'email' | null>(null);
  const enabled = user.two_factor;
  const done = () => setEnrolling(null);

  return (
    <SectionCard
      id="two-factor"
      title="Two-factor sign-in"
      subtitle="A code on top of the password, so a leaked password is not enough."
      icon={SecurityOutlined}
      aside={
        <Chip
          size="small"
          color={enabled ? 'success' : 'default'}
          variant={enabled ? 'filled' : 'outlined'}
          label={enabled ? 'On' : 'Off'}
        />
      }
    >
      {acting ? <ActingNotice only="change two-factor sign-in" /> : null}
      {enabled ? (
        <Stack spacing={2}>
          <Typography variant="body2">
            On, with {user.two_factor_method ? METHOD_NAMES[user.two_factor_method] : 'a code'}.
            Each sign-in asks for a code after the password.
          </Typography>
          <DisableTwoFactor save={save} disabled={acting} />
        </Stack>
      ) : enrolling === 'totp' ? (
        <TotpEnrolment save={save} onDone={done} />
      ) : enrolling === 'email' ? (
        <EmailEnrolment email={user.email} save={save} onDone={done} />
      ) : (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            Choose where the codes come from.
          </Typography>
          <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              startIcon={<PhonelinkLockOutlined />}
              disabled={acting}
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() => setEnrolling('totp')}
            >
              Use an authenticator app
            </Button>
            <Button
              variant="outlined"
              startIcon={<MarkEmailReadOutlined />}
              disabled={acting}
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() => setEnrolling('email')}
            >
              Use emailed codes
            </Button>
          </Stack>
        </Stack>
      )}
    </SectionCard>
  );
}
