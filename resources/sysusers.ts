import { z } from 'zod';
import { quotaMb, systemUserName, systemUserPassword } from './agent/validators';
import { defineResource } from './define';

export const desiredState = z.enum(['pending', 'active', 'failed']);

export const sysuserSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  quota_hard: z.number(),
  quota_soft: z.number(),
  /** Written first as pending; active once the server has it, failed with the reason if not. */
  status: desiredState,
  error: z.string().nullable(),
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
  scope: 'server',
  parent: 'server',
  params: { id: 'id' },
  schema: sysuserSchema,
  input: z.object({ password: systemUserPassword }),
  paths: {
    list: 'sysusers/servers/{sid}/users/{uid}',
    one: 'sysusers/{id}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: { guard: 'self', sort: ['created_at', 'user_name'] },
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
      query: z.object({ rsa: z.enum(['create', 'get']).optional() }),
      response: z.union([sysuserSchema, deployKeySchema]),
    },
    update: { guard: 'self', method: 'PUT', summary: 'Change the password' },
    delete: { guard: 'self', summary: 'Delete the user and its home' },
  },
  ui: {
    listFields: ['user_name', 'quota_hard', 'quota_soft', 'status', 'created_at'],
    recordRepresentation: 'user_name',
  },
});
