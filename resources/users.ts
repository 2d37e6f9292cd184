import { z } from 'zod';
import { defineResource, flag } from './define';

export const PLAN_NAMES: Record<number, string> = { 1: 'Trial', 2: 'Free', 3: 'Basic', 4: 'Pro' };
export const PRO_PLAN_ID = 4;

export const password = z
  .string()
  .min(10, 'At least 10 characters')
  .max(128, 'At most 128 characters');
export const email = z.email('Enter a valid email address').max(254).toLowerCase();
export const otpCode = z.string().regex(/^\d{6}$/, 'Enter the 6-digit code');
export const twoFactorMethod = z.enum(['email', 'totp']);

/** The profile fields of the spec keep their spelling (Addr_1, CompanyName, ...). */
export const profileFields = z.object({
  user_name: z.string().trim().min(2, 'At least 2 characters').max(64),
  Addr_1: z.string().trim().max(200).optional(),
  Addr_2: z.string().trim().max(200).optional(),
  City: z.string().trim().max(100).optional(),
  CompanyName: z.string().trim().max(200).optional(),
  Country: z
    .string()
    .regex(/^([A-Z]{2})?$/, 'Pick a country')
    .optional(),
  PostalCode: z.string().trim().max(20).optional(),
  State: z.string().trim().max(100).optional(),
  TaxNum: z.string().trim().max(50).optional(),
  TimeZone: z.string().max(64).optional(),
});

export const userSchema = profileFields.extend({
  id: z.number().int(),
  uuid: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  is_admin_staff: z.boolean(),
  plan_id: z.number().int(),
  photo: z.string().nullable(),
  /** The newest of the account's API keys (never a secret); null when it has none. */
  api_key: z.string().nullable(),
  two_factor: z.boolean(),
  two_factor_method: twoFactorMethod.nullable(),
  confirmed: z.boolean(),
  disabled: z.boolean(),
  /** Mail the user on every sign-in. */
  LoginNotif: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

/**
 * Everything a user may change on their own record. `is_admin`, `plan_id`, `api_key` and the
 * like are absent, so the server strips them from any request.
 */
export const userUpdate = profileFields.partial().extend({
  LoginNotif: flag.optional(),
  password: password.optional(),
  current_password: z.string().max(128).optional(),
  two_factor: flag.optional(),
  two_factor_method: twoFactorMethod.optional(),
  /** The code that proves the authenticator works (enabling TOTP) or the password holder is present. */
  otp_code: otpCode.optional(),
});
export type UserUpdate = z.infer<typeof userUpdate>;

export const registerBody = z.object({
  user_name: profileFields.shape.user_name,
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
export const photoBody = z.object({
  data: z
    .string()
    .max(1_500_000, 'The photo must be under 1 MB')
    .regex(
      /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/,
      'PNG, JPEG, WebP or GIF only',
    ),
});
export const totpEnrolment = z.object({
  otpauth_url: z.string(),
  qr: z.string(),
  secret: z.string(),
});
const sent = z.object({ sent: z.boolean() });

export const users = defineResource({
  name: 'users',
  label: 'Users',
  schema: userSchema,
  input: userUpdate,
  paths: { one: 'users/{uid}' },
  idParam: 'uid',
  ops: {
    // Admin staff reach Users: they read any user's record, photo and servers, nothing more.
    get: { guard: 'self', staffMay: true, summary: 'Read a user' },
    update: { guard: 'self', method: 'PUT', summary: 'Change profile, password or two-factor' },
  },
  actions: {
    register: {
      method: 'POST',
      path: 'users',
      guard: 'public',
      rateLimited: true,
      summary:
        'Register; `ref` is the uuid of the referring user. The answer is the same for an address that has an account (whose owner is mailed instead), so it names no account: the confirmation link is in the mail',
      query: z.object({ ref: z.uuid().optional() }),
      body: registerBody,
      response: z.object({ email: z.string() }),
      status: 201,
    },
    confirm: {
      method: 'POST',
      path: 'users/confirm',
      guard: 'public',
      rateLimited: true,
      summary: 'Confirm the account with the emailed code',
      body: confirmBody,
      response: z.object({ confirmed: z.literal(true) }),
    },
    confirmationEmail: {
      method: 'GET',
      path: 'users/email',
      guard: 'public',
      rateLimited: true,
      summary: 'Where the confirmation code went (masked); `resend=true` mails a new one',
      query: z.object({ uuid: z.uuid(), resend: z.enum(['true', 'false']).optional() }),
      response: z.object({ email: z.string(), confirmed: z.boolean() }),
    },
    login: {
      method: 'POST',
      path: 'users/login',
      guard: 'public',
      rateLimited: true,
      summary: 'Sign in; a second call with `otp` completes two-factor sign-in',
      query: z.object({ otp: otpCode.optional(), provider: z.enum(['local']).optional() }),
      body: loginBody,
      response: loginResponse,
    },
    logout: {
      method: 'POST',
      path: 'users/logout',
      guard: 'user',
      summary: 'Revoke the token used for this call',
      response: z.object({ ok: z.literal(true) }),
    },
    forgotPassword: {
      method: 'GET',
      path: 'users',
      guard: 'public',
      rateLimited: true,
      summary:
        'Mail a password-reset code; `id` names the reset request (same shape for unknown emails)',
      query: z.object({ em: z.string().max(254) }),
      response: z.object({ id: z.string() }),
    },
    resetPassword: {
      method: 'POST',
      path: 'users/password',
      guard: 'public',
      rateLimited: true,
      summary: 'Check a reset code, or with `password` set the new password',
      body: resetPasswordBody,
      response: z.object({ valid: z.literal(true), changed: z.boolean() }),
    },
    sendOtp: {
      method: 'GET',
      path: 'users/{uid}/otp',
      guard: 'self',
      rateLimited: true,
      summary: 'Mail a one-time code to the user (confirms sensitive actions)',
      response: sent,
    },
    email: {
      method: 'GET',
      path: 'users/{uid}/email',
      guard: 'self',
      summary: "The user's email address",
      response: z.object({ email: z.string() }),
    },
    // An action rather than the plain delete op: it takes a body (the password).
    delete: {
      method: 'DELETE',
      path: 'users/{uid}',
      guard: 'self',
      forbidWhileActing: true,
      summary: 'Delete the account; asks for the password (and the second factor when it is on)',
      body: reauthBody,
      response: z.object({ id: z.number(), email: z.string() }),
    },
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
    photo: {
      method: 'GET',
      path: 'images/users/{uid}',
      guard: 'self',
      staffMay: true,
      summary: 'Profile photo as a data URL (null when none)',
      response: z.object({ user_id: z.number(), data: z.string().nullable() }),
    },
    setPhoto: {
      method: 'PUT',
      path: 'images/users/{uid}',
      guard: 'self',
      summary: 'Upload a profile photo (data URL, at most 1 MB)',
      body: photoBody,
      bodyLimit: 2 * 1024 * 1024,
      response: z.object({ user_id: z.number(), data: z.string().nullable() }),
    },
    deletePhoto: {
      method: 'DELETE',
      path: 'images/users/{uid}',
      guard: 'self',
      summary: 'Remove the profile photo',
      response: z.object({ user_id: z.number(), data: z.null() }),
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
