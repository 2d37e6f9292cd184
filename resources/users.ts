import { z } from 'zod';
import { defineResource } from './define';
import { photoBody, userSchema, userUpdate } from './user-profile';
import {
  confirmBody,
  loginBody,
  loginResponse,
  otpCode,
  reauthBody,
  registerBody,
  resetPasswordBody,
} from './user-security';

/**
 * The users resource: its routes; the schemas are in user-profile.ts and user-security.ts (which
 * declares the account's API keys and authenticator enrolment: features/account-security).
 */
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
      changesState: true,
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
      changesState: true,
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
      changesState: true,
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
  },
});
