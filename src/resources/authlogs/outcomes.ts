import type { AuthOutcome } from '../../../resources/authlogs';

type Tone = 'success' | 'info' | 'warning' | 'error';

/** How each sign-in outcome reads, and how alarming it looks. */
export const OUTCOMES: Record<AuthOutcome, { label: string; tone: Tone }> = {
  success: { label: 'Signed in', tone: 'success' },
  otp_sent: { label: 'Code requested', tone: 'info' },
  bad_password: { label: 'Wrong password', tone: 'error' },
  unknown_user: { label: 'Unknown account', tone: 'error' },
  otp_failed: { label: 'Wrong code', tone: 'error' },
  unconfirmed: { label: 'Not confirmed yet', tone: 'warning' },
  disabled: { label: 'Account disabled', tone: 'warning' },
  rate_limited: { label: 'Too many attempts', tone: 'warning' },
};

export const OUTCOME_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(OUTCOMES).map(([outcome, { label }]) => [outcome, label]),
);
