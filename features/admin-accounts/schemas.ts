/**
 * What the admin area reads and writes of accounts and servers (spec 7 "Admin"), for every
 * program: pure zod, no node module, so the browser imports it too.
 */
import { z } from 'zod';
import { email } from '../../resources/user-security';
import { profileFields, userSchema } from '../../resources/user-profile';

/** How a server is doing, as the admin list shows and filters it. */
export const ADMIN_SERVER_STATUSES = ['connected', 'disconnected', 'pending'] as const;
export type AdminServerStatus = (typeof ADMIN_SERVER_STATUSES)[number];
export const ADMIN_SERVER_STATUS_LABELS: Record<AdminServerStatus, string> = {
  connected: 'Connected',
  disconnected: 'Disconnected',
  pending: 'Pending install',
};

/** `GET admin/servers`: a server of any account, with its owner. */
export const adminServerSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  /** The name the user chose (a pending install shows it rather than its cs- name). */
  name: z.string(),
  ip4: z.string().nullable(),
  os_version: z.string().nullable(),
  provider: z.string().nullable(),
  status: z.enum(ADMIN_SERVER_STATUSES),
  /** When the agent last reported. */
  last_seen_at: z.string().nullable(),
  created_at: z.string(),
  user_id: z.number().int(),
  owner_name: z.string(),
  owner_email: z.string(),
});
export type AdminServer = z.infer<typeof adminServerSchema>;

export const adminServerFilters = z.object({
  /** Name or IPv4 address contains. */
  q: z.string().trim().max(100).optional(),
  /** The owner's email or name contains. */
  owner: z.string().trim().max(254).optional(),
  /** Exactly this owner (the profile page's servers). */
  user_id: z.coerce.number().int().positive().optional(),
  status: z.enum(ADMIN_SERVER_STATUSES).optional(),
});

/** At most this many users' photos in one `admin/user-images` call (a page of a list). */
export const MAX_IMAGE_IDS = 25;

const userIds = z
  .string()
  .trim()
  .regex(/^\d+(,\d+)*$/, 'User ids separated by commas, like 3,14,15')
  .transform((text) => [...new Set(text.split(',').map(Number))])
  .refine((ids) => ids.length <= MAX_IMAGE_IDS, `At most ${MAX_IMAGE_IDS} users at once`);

export const userImagesQuery = z.object({ ids: userIds });
export const userImageSchema = z.object({ user_id: z.number().int(), data: z.string() });
export const userImagesResponse = z.object({ data: z.array(userImageSchema) });
export type UserImage = z.infer<typeof userImageSchema>;

const never = (message: string) => z.never({ error: message }).optional();

/**
 * `PATCH admin/update-user`: what an admin may change of an account (the profile of spec 3,
 * the sign-in address, whether the account is admin staff). The password and two-factor
 * sign-in stay the holder's: the fields are refused by name, not dropped in silence. Disabling
 * is `PATCH admin/users?uid` (it signs the account out everywhere).
 */
export const adminUserUpdate = profileFields.partial().extend({
  id: z.coerce.number({ error: 'Name the user' }).int().positive('Name the user'),
  email: email.optional(),
  is_admin_staff: z.boolean({ error: 'Yes or no' }).optional(),
  password: never('An admin never sets a password: send the user a reset mail'),
  current_password: never('An admin never sets a password: send the user a reset mail'),
  two_factor: never('Only the account holder turns two-factor sign-in on or off'),
  two_factor_method: never('Only the account holder turns two-factor sign-in on or off'),
  otp_code: never('Only the account holder turns two-factor sign-in on or off'),
});
export type AdminUserUpdate = z.infer<typeof adminUserUpdate>;

/** The fields of the update an admin's form shows (the id aside). */
export const ADMIN_EDITABLE = [
  'user_name',
  'email',
  'CompanyName',
  'Addr_1',
  'Addr_2',
  'City',
  'State',
  'PostalCode',
  'Country',
  'TaxNum',
  'TimeZone',
  'is_admin_staff',
] as const satisfies readonly (keyof AdminUserUpdate)[];

export const adminUserRecord = userSchema;

/** A line of the account's credit ledger: bytes of the panel's backup storage granted or taken. */
export const creditLineSchema = z.object({
  id: z.number().int(),
  delta_bytes: z.number().int(),
  reason: z.string(),
  /** The admin's name, or `metering` / `plan`. */
  by: z.string(),
  created_at: z.string(),
});

export const creditHistoryQuery = z.object({
  uid: z.coerce.number().int().positive(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
});

/**
 * `GET admin/credit-history?uid`: the account's backup credit (the only credit the panel keeps
 * today), what it uses, and the ledger newest first, a page at a time.
 */
export const creditHistorySchema = z.object({
  kind: z.literal('backup-storage'),
  credit_bytes: z.number().int(),
  used_bytes: z.number().int(),
  metered_at: z.string().nullable(),
  data: z.array(creditLineSchema),
  total: z.number().int(),
});
export type CreditHistory = z.infer<typeof creditHistorySchema>;
