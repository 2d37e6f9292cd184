import type { Reauth } from '../../resources/user-security';
import type { UserRow } from '../db/schema';
import { fieldError } from '../http/errors';
import type { Services } from '../serviceTypes';
import { verifyPassword } from './passwords';
import { totpStep } from './totp';

type Needs = Pick<Services, 'codes' | 'users' | 'box'>;

/**
 * Proves that the account holder is at the keyboard, for what a stolen token must not do alone
 * (mint an API key, delete the account): the current password, then, when two-factor sign-in
 * is on, a code: the authenticator app's (each code once) or one mailed by GET users/{uid}/otp.
 * Wrong answers are field errors the form shows at the field: `password`, then `otp`.
 */
export async function reauthenticate(
  services: Needs,
  user: UserRow,
  proof: Reauth,
  clock: () => number = Date.now,
): Promise<void> {
  if (!(await verifyPassword(user.password_hash, proof.password))) {
    throw fieldError('password', 'Wrong password');
  }
  if (!user.two_factor) return;
  const method = user.two_factor_method ?? 'email';
  if (!proof.otp) {
    throw fieldError(
      'otp',
      method === 'totp'
        ? 'Enter the code from your authenticator app'
        : 'Enter the code we mailed you',
    );
  }
  let ok: boolean;
  if (method === 'totp') {
    const step = user.totp_secret
      ? totpStep(services.box.open(user.totp_secret), proof.otp, clock())
      : null;
    ok = step !== null && (await services.users.advanceTotpStep(user.id, step));
  } else {
    ok = await services.codes.consumeLatest(user.id, 'verify', proof.otp);
  }
  if (!ok) throw fieldError('otp', 'Invalid or expired code');
}
