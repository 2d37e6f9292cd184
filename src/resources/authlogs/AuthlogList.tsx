import { Chip, Tooltip, Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import { authlogs } from '../../../resources/authlogs';
import type { AuthOutcome } from '../../../resources/authlogs';
import { MonoText } from '../../generic/cells';
import { GenericList } from '../../generic/GenericList';
import { Slot } from '../../shell/slots';
import { describeUserAgent } from '../../generic/userAgent';
import { OUTCOMES, OUTCOME_LABELS } from './outcomes';

declare module '../../shell/slots' {
  interface PageSlots {
    /** Above the sign-in attempts (features/account-security: the active sessions). */
    'login-activity.before': Record<string, never>;
  }
}

function OutcomeChip({ record }: { record: RaRecord }) {
  const outcome = OUTCOMES[record.outcome as AuthOutcome];
  return (
    <Chip
      size="small"
      color={outcome?.tone ?? 'default'}
      variant={outcome?.tone === 'success' ? 'filled' : 'outlined'}
      label={outcome?.label ?? String(record.outcome)}
    />
  );
}

function DeviceCell({ record }: { record: RaRecord }) {
  const userAgent = String(record.user_agent ?? '');
  return (
    <Tooltip title={userAgent}>
      <Typography variant="body2">{describeUserAgent(userAgent)}</Typography>
    </Tooltip>
  );
}

/** /login-activity: the active sessions, then every sign-in attempt on the account, newest first. */
export function AuthlogList() {
  return (
    <GenericList
      resource={authlogs}
      description="Where your account is signed in now, and every attempt to sign in to it. If you see one you do not recognise, sign it out, change your password and turn on two-factor sign-in."
      before={<Slot id="login-activity.before" props={{}} />}
      labels={{ created_at: 'Time', outcome: 'Result' }}
      filterLabels={{ outcome: 'Result' }}
      filterChoiceLabels={{ outcome: OUTCOME_LABELS }}
      render={{
        outcome: (record) => <OutcomeChip record={record} />,
        user_agent: (record) => <DeviceCell record={record} />,
        ip: (record) => <MonoText>{record.ip}</MonoText>,
      }}
      empty={{
        icon: LoginOutlined,
        title: 'No sign-ins yet',
        text: 'Sign-in attempts on your account will be listed here.',
      }}
    />
  );
}
