/**
 * The panel's half of Roundcube's single sign-on: a token the app's stackdeck_sso plugin takes
 * once, within TOKEN_TTL seconds (its PHP check is ssoPlugin.ts TOKEN_PHP).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { TOKEN_TTL } from './ssoPlugin';

/** What the token says; the plugin refuses any other shape. */
export interface SsoClaims {
  v: 1;
  /** The panel's id of the Roundcube app. */
  app: number;
  /** The mailbox, lower-cased as Dovecot logs in. */
  email: string;
  /** Unix seconds. */
  exp: number;
  nonce: string;
}

/** A new signing key for an app: 32 random bytes, base64url (ssoPlugin.ts SSO_KEY). */
export const newSsoKey = () => randomBytes(32).toString('base64url');

export const signClaims = (key: string, claims: SsoClaims): string => {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
};

/** A token for the mailbox on the app, good TOKEN_TTL seconds from `now` (ms). */
export function mintSsoToken(
  key: string,
  app: number,
  email: string,
  now: number,
): { token: string; expires_at: string } {
  const exp = Math.floor(now / 1000) + TOKEN_TTL;
  const nonce = randomBytes(24).toString('base64url');
  return {
    token: signClaims(key, { v: 1, app, email, exp, nonce }),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}
