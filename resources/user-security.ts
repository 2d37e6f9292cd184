import { z } from 'zod';
import { defineResource } from './define';

/**
 * The account's credentials and their forms: password and email rules, codes, sign-in,
 * registration and reset bodies, re-authentication and API keys. users.ts declares the routes.
 */

/** The name shown for the account (the profile's user_name). */
export const userName = z.string().trim().min(2, 'At least 2 characters').max(64);
export const password = z
  .string()
  .min(10, 'At least 10 characters')
  .max(128, 'At most 128 characters');
export const email = z.email('Enter a valid email address').max(254).toLowerCase();
export const otpCode = z.string().regex(/^\d{6}$/, 'Enter the 6-digit code');
export const twoFactorMethod = z.enum(['email', 'totp']);

export const registerBody = z.object({
  user_name: userName,
  email,
  password,
});

export const loginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email').max(254),
  password: z.string().min(1, 'Enter your password').max(128),
});
/** A mailed or authenticator code on its own (confirmation, sign-in, reset). */
export const codeBody = z.object({ code: otpCode });
export const confirmBody = codeBody.extend({ uuid: z.uuid() });
export const resetPasswordBody = codeBody.extend({ id: z.uuid(), password: password.optional() });
export const loginResponse = z.union([
  z.object({
    User: z.object({ id: z.number(), is_admin: z.boolean(), plan_id: z.number() }),
    Token: z.string(),
  }),
  z.object({ otp_required: z.literal(true), method: twoFactorMethod }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * Proof that the account holder is at the keyboard, for what a stolen token must not do alone
 * (minting an API key, deleting the account): the password, and the second factor when it is on
 * (a code from GET users/{uid}/otp, or the authenticator app's code).
 */
export const reauthBody = z.object({
  password: z.string().min(1, 'Enter your password').max(128),
  otp: otpCode.optional(),
});
export type Reauth = z.infer<typeof reauthBody>;
export const mintApiKeyBody = reauthBody.extend({
  /** What the key is for, to tell keys apart in the list. */
  label: z.string().trim().max(100, 'At most 100 characters').optional(),
});
/** A new key: the secret is in this answer only. */
export const apiKeyPair = z.object({
  id: z.number(),
  api_key: z.string(),
  api_secret: z.string(),
  label: z.string(),
  created_at: z.string(),
});
/** A key as listed: when it was made and last used (time and client address); no secret. */
export const apiKeyRecord = z.object({
  id: z.number(),
  api_key: z.string(),
  label: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;
export const totpEnrolment = z.object({
  otpauth_url: z.string(),
  qr: z.string(),
  secret: z.string(),
});

/** A record of `user-security` names the account; each of its routes answers with its own shape. */
const accountRef = z.object({ id: z.number() });

/**
 * The account's API keys and authenticator enrolment (features/account-security): only the
 * holder, never an admin acting for them. The password and two-factor switches themselves are
 * fields of `PUT users/{uid}` (users.ts), checked by the feature through `user.updating`.
 */
export const userSecurity = defineResource({
  name: 'user-security',
  // An API key of the `{uid}` user: the request hook loads `{id}` through them.
  parent: 'account',
  params: { id: 'id' },
  label: 'Security',
  schema: accountRef,
  paths: {},
  ops: {},
  actions: {
    generateApiKey: {
      method: 'POST',
      path: 'auth/gen/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary:
        'New API key and secret (added to the others); asks for the password (and the second factor when it is on); the secret is shown only in this response',
      body: mintApiKeyBody,
      response: apiKeyPair,
    },
    apiKeys: {
      method: 'GET',
      path: 'auth/keys/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: "The account's API keys, newest first, with their last use",
      response: z.object({ data: z.array(apiKeyRecord), total: z.number().int() }),
    },
    revokeApiKey: {
      method: 'DELETE',
      path: 'auth/keys/{id}/users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Revoke one API key: it stops working at once',
      response: z.object({ id: z.number() }),
    },
    totpEnrol: {
      method: 'POST',
      path: 'users/{uid}/totp',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Start TOTP enrolment: a new secret and its QR code, enabled by a PUT with otp_code',
      response: totpEnrolment,
    },
  },
});
