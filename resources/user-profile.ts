import { z } from 'zod';
import { flag } from './define';
import { otpCode, password, twoFactorMethod, userName } from './user-security';

/** What a user is and may change of their own record: profile, plan, photo, settings. */
export const PLAN_NAMES: Record<number, string> = { 1: 'Trial', 2: 'Free', 3: 'Basic', 4: 'Pro' };
export const PRO_PLAN_ID = 4;

/** The profile fields of the spec keep their spelling (Addr_1, CompanyName, ...). */
export const profileFields = z.object({
  user_name: userName,
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

export const photoBody = z.object({
  data: z
    .string()
    .max(1_500_000, 'The photo must be under 1 MB')
    .regex(
      /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+$/,
      'PNG, JPEG, WebP or GIF only',
    ),
});
