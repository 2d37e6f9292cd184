import { z } from 'zod';
import { defineResource } from './define';
import { loginResponse } from './user-security';

export const adminUserSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  email: z.string(),
  user_name: z.string(),
  is_admin: z.boolean(),
  is_admin_staff: z.boolean(),
  plan_id: z.number().int(),
  confirmed: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});

export const accountStates = ['enabled', 'disabled'] as const;
export const accountStateBody = z.object({
  state: z.enum(accountStates, { error: 'Either enabled or disabled' }),
});

/** All users, for admins and admin staff. */
export const adminUsers = defineResource({
  name: 'admin-users',
  label: 'Users',
  schema: adminUserSchema,
  paths: { list: 'admin/users' },
  ops: {
    list: {
      guard: 'staff',
      sort: ['created_at', 'email', 'user_name'],
      filters: z.object({ q: z.string().max(254).optional() }),
    },
  },
  actions: {
    actAs: {
      method: 'POST',
      path: 'admin/act-as/users/{uid}',
      guard: 'admin',
      summary: 'A token to act as the user; the admin switches back by dropping it',
      response: loginResponse,
    },
    // The outbox masks codes (an admin reading one could take the account over); these are what
    // an admin needs instead. Both are written to the user's account activity with the admin.
    confirm: {
      method: 'POST',
      path: 'admin/confirm/users/{uid}',
      guard: 'admin',
      summary:
        "Confirm the user's account (when their confirmation mail cannot reach them); audited",
      response: z.object({ confirmed: z.literal(true) }),
    },
    sendPasswordReset: {
      method: 'POST',
      path: 'admin/password-reset/users/{uid}',
      guard: 'admin',
      summary: 'Mail the user a fresh password-reset code, which only they read; audited',
      response: z.object({ sent: z.literal(true) }),
    },
    // Spec: "enable or disable a user through a state body", `PATCH admin/users?uid`. Disabling
    // signs every session of the account out at once (their live sockets close) and refuses its
    // tokens and API keys until it is enabled again. An admin cannot disable their own account.
    setState: {
      method: 'PATCH',
      path: 'admin/users',
      guard: 'admin',
      summary:
        'Disable an account (every session signed out at once, API keys refused) or enable it again; audited',
      query: z.object({ uid: z.coerce.number().int().positive() }),
      body: accountStateBody,
      response: z.object({ id: z.number().int(), disabled: z.boolean() }),
    },
  },
  ui: {
    listFields: ['id', 'email', 'user_name', 'plan_id', 'is_admin', 'confirmed', 'created_at'],
    recordRepresentation: 'email',
  },
});

export const adminDashboardSchema = z.object({
  users: z.number().int(),
  confirmed_users: z.number().int(),
  admins: z.number().int(),
  servers: z.number().int(),
  connected_servers: z.number().int(),
  signups_last_30_days: z.number().int(),
});

/** Figures for /admin/dashboard. */
export const adminDashboard = defineResource({
  name: 'admin-dashboard',
  label: 'Dashboard',
  schema: adminDashboardSchema,
  paths: {},
  ops: {},
  actions: {
    stats: {
      method: 'GET',
      path: 'admin/dashboard',
      guard: 'admin',
      summary: 'Counts of users and servers',
      response: adminDashboardSchema,
    },
  },
});
