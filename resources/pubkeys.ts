import { z } from 'zod';
import { sshPublicKey, systemUserName } from './agent/validators';
import { desiredState } from './sysusers';
import { defineResource } from './define';

export const pubkeySchema = z.object({
  id: z.number().int(),
  /** Whose authorized_keys it is in. */
  user_name: z.string(),
  label: z.string(),
  type: z.string(),
  fingerprint: z.string(),
  status: desiredState,
  error: z.string().nullable(),
  created_at: z.string(),
});

export const pubkeyCreate = z.object({
  label: z.string().trim().min(1, 'Name the key').max(100),
  user_name: systemUserName.or(z.literal('root')),
  key: sshPublicKey,
});

/** SSH keys in a system user's authorized_keys (spec `pubkeys`). */
export const pubkeys = defineResource({
  name: 'pubkeys',
  label: 'SSH Keys',
  scope: 'server',
  schema: pubkeySchema,
  input: pubkeyCreate,
  paths: {
    list: 'pubkeys/servers/{sid}/users/{uid}',
    one: 'pubkeys/{id}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: { guard: 'self', sort: ['created_at', 'label'] },
    create: { guard: 'self', summary: "Add a key to the user's authorized_keys" },
    delete: { guard: 'self', summary: 'Remove the key from the server' },
  },
  ui: {
    listFields: ['label', 'user_name', 'type', 'fingerprint', 'status'],
    formFields: ['label', 'user_name', 'key'],
    recordRepresentation: 'label',
  },
});
