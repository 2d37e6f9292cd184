/**
 * System users (spec `sysusers`): the Linux accounts of a server the panel made, and root's
 * password on the first opening. The panel keeps the desired users; the agent makes them.
 */
import { z } from 'zod';
import { op, noArgs } from '../../resources/agent/opDef';
import {
  passwordHash,
  quotaMb,
  systemUserName,
  systemUserPassword,
} from '../../resources/agent/validators';
import { defineResource } from '../../resources/define';
import { managedStatus } from '../../resources/managedState';

/** Where a server-managed row stands (server/managed): `deleting` waits for the server. */
export const desiredState = managedStatus;

export const sysuserSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  quota_hard: z.number(),
  quota_soft: z.number(),
  /**
   * Written first as pending (also while the server is offline: made when it is back); active
   * once the server has it, failed with the reason, at its field, if not.
   */
  status: desiredState,
  error: z.string().nullable(),
  error_field: z.string().nullable(),
  /** With `?sync=true`: the server has no such user (missing) or other quotas (changed). */
  drift: z.enum(['missing', 'changed']).nullable().optional(),
  created_at: z.string(),
});
export type Sysuser = z.infer<typeof sysuserSchema>;

/** The create body: {user_name, password, quota_hard, quota_soft} (MB; 0 is no quota). */
export const sysuserCreate = z
  .object({
    // root is accepted only for the server's first opening (its password is set, nothing created).
    user_name: systemUserName.or(z.literal('root')),
    password: systemUserPassword,
    quota_hard: quotaMb.default(0),
    quota_soft: quotaMb.default(0),
  })
  .refine((u) => u.quota_hard === 0 || u.quota_soft <= u.quota_hard, {
    path: ['quota_soft'],
    message: 'The soft limit cannot exceed the hard limit',
  });

export const sysuserCheck = z.object({ available: z.boolean(), reason: z.string().nullable() });
export const deployKeySchema = z.object({ public_key: z.string().nullable() });

/** System users of a server (spec `sysusers`); root is never listed. */
export const sysusers = defineResource({
  name: 'sysusers',
  label: 'System Users',
  parent: 'server',
  params: { id: 'id' },
  schema: sysuserSchema,
  input: z.object({ password: systemUserPassword }),
  paths: {
    list: 'sysusers/servers/{sid}/users/{uid}',
    one: 'sysusers/{id}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'user_name'],
      summary: "The server's system users; `?sync=true` compares them with the server's own",
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    create: {
      guard: 'self',
      summary: 'Create a system user; `?dry=true` only checks the name can be used',
      body: sysuserCreate,
      query: z.object({ dry: z.enum(['true', 'false']).optional() }),
      response: z.union([sysuserSchema, sysuserCheck]),
    },
    get: {
      guard: 'self',
      summary: 'The user; `?rsa=create` makes its deployment key, `?rsa=get` reads it',
      changesState: true,
      query: z.object({ rsa: z.enum(['create', 'get']).optional() }),
      response: z.union([sysuserSchema, deployKeySchema]),
    },
    update: { guard: 'self', method: 'PUT', summary: 'Change the password' },
    delete: { guard: 'self', summary: 'Delete the user and its home' },
  },
  ui: {
    listFields: ['user_name', 'quota_hard', 'quota_soft', 'status', 'created_at'],
    formFields: ['user_name', 'password', 'quota_hard', 'quota_soft'],
    widgets: {
      // The name is checked with `?dry=true` while typing; the password is generated and shown once.
      user_name: { kind: 'availability' },
      password: { kind: 'password' },
    },
    labels: {
      user_name: 'User name',
      password: 'Password',
      quota_hard: 'Hard quota (MB)',
      quota_soft: 'Soft quota (MB)',
    },
    help: {
      user_name: 'Lower-case letters, digits, _ and -, starting with a letter (at most 32)',
      password: 'At least 12 characters, no colons. Generate one and keep it somewhere safe',
      quota_hard: 'Disk space the user cannot exceed; 0 is no quota',
      quota_soft: 'Warning limit, at most the hard quota; 0 is no quota',
    },
    recordRepresentation: 'user_name',
  },
});

export const resources = { sysusers };

export const systemUserInfoSchema = z.object({
  user_name: systemUserName,
  uid: z.number().int(),
  home: z.string(),
  shell: z.string(),
  /** Quota in MB as the filesystem enforces it; null where the filesystem has no quotas. */
  quota_hard: z.number().nullable(),
  quota_soft: z.number().nullable(),
});
export type SystemUserInfo = z.infer<typeof systemUserInfoSchema>;

export const ops = {
  'sysusers.list': op(noArgs, z.array(systemUserInfoSchema)),
  /** The `?dry=true` check: can this user be created? */
  'sysusers.check': op(
    z.object({ user_name: systemUserName }),
    z.object({ available: z.boolean(), reason: z.string().nullable() }),
  ),
  /**
   * Makes the user; a user the panel made already (a repeated apply) gets the password and
   * quotas again. The password comes as its hash (`chpasswd -e`); null keeps the one it has.
   */
  'sysusers.create': op(
    z.object({
      user_name: systemUserName,
      password_hash: passwordHash.nullable(),
      quota_hard: quotaMb,
      quota_soft: quotaMb,
    }),
    systemUserInfoSchema,
    60_000,
  ),
  /**
   * root's password (36 generated characters), on the first opening only when the owner asked
   * for it at connect; root is never created or deleted through the panel.
   */
  'sysusers.rootPassword': op(
    z.object({ password_hash: passwordHash }),
    z.object({ changed: z.literal(true) }),
  ),
  'sysusers.password': op(
    z.object({ user_name: systemUserName, password_hash: passwordHash }),
    z.object({ changed: z.literal(true) }),
  ),
  'sysusers.delete': op(
    z.object({ user_name: systemUserName, delete_home: z.boolean() }),
    z.object({ deleted: z.literal(true) }),
    60_000,
  ),
  /** The user's deployment key (`?rsa=create` makes one if missing, `?rsa=get` reads it). */
  'sysusers.deployKey': op(
    z.object({ user_name: systemUserName, create: z.boolean() }),
    z.object({ public_key: z.string().nullable() }),
    60_000,
  ),
};
