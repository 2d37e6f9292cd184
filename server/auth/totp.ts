import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Stackdeck',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

export function totpUri(secret: string, label: string): string {
  return totpFor(secret, label).toString();
}

/**
 * The time step a code belongs to (one step of drift either way), or null. The caller stores the
 * step and refuses any step at or before it, so each code works once.
 */
export function totpStep(secret: string, code: string, at = Date.now()): number | null {
  const delta = totpFor(secret, 'check').validate({ token: code, timestamp: at, window: 1 });
  if (delta === null) return null;
  return Math.floor(at / 1000 / PERIOD) + delta;
}

/** For tests and the CLI: the code an authenticator shows at a time. */
export function totpCodeAt(secret: string, at = Date.now()): string {
  return totpFor(secret, 'check').generate({ timestamp: at });
}
