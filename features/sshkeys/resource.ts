import { z } from 'zod';
import { noArgs, op } from '../../resources/agent/opDef';
import { sshPublicKey, systemUserName } from '../../resources/agent/validators';
import { managedStatus } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { sshconfig, sshSettingsSchema } from './sshconfig';

export { sshSettingsSchema, type SshSettings } from './sshconfig';

/**
 * pending / active / failed like every desired-state row, and `removing`: the panel user who
 * added the key lost the server (left its team, removed, unshared); the agent is asked to take
 * it off, at once or when the server is back online, and the row goes when it has.
 */
export const pubkeyStatus = z.enum([...managedStatus.options, 'removing']);

/** The panel user who added a key. */
export const keyAdderSchema = z.object({
  id: z.number().int(),
  user_name: z.string(),
  email: z.string(),
});

export const pubkeySchema = z.object({
  id: z.number().int(),
  /** Whose authorized_keys it is in. */
  user_name: z.string(),
  label: z.string(),
  type: z.string(),
  fingerprint: z.string(),
  status: pubkeyStatus,
  error: z.string().nullable(),
  error_field: z.string().nullable(),
  /** With `?sync=true`: the key is not in the user's authorized_keys (missing). */
  drift: z.enum(['missing', 'changed']).nullable().optional(),
  /**
   * Who added it: the server's owner, or a member of a team the server is shared with (the
   * user whose access it came through; an admin acting for them adds it as them). A key stays
   * only while its adder reaches the server. Null when the adder's account is gone.
   */
  added_by: keyAdderSchema.nullable(),
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
  parent: 'server',
  params: { id: 'id' },
  schema: pubkeySchema,
  input: pubkeyCreate,
  paths: {
    list: 'pubkeys/servers/{sid}/users/{uid}',
    one: 'pubkeys/{id}/servers/{sid}/users/{uid}',
  },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'label'],
      summary:
        'The keys the panel put in authorized_keys on the server, with who added each; `?sync=true` reads them back',
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    create: { guard: 'self', summary: "Add a key to the user's authorized_keys" },
    delete: { guard: 'self', summary: 'Remove the key from the server' },
  },
  ui: {
    // Whose key first; the page shows the type with the fingerprint and who added it by the name.
    listFields: ['user_name', 'label', 'fingerprint', 'status'],
    formFields: ['label', 'user_name', 'key'],
    widgets: {
      // Like cron's `sys_user`: root is no record of the panel, so it is offered first.
      user_name: {
        kind: 'reference',
        resource: 'sysusers',
        optionText: 'user_name',
        optionValue: 'user_name',
        extra: [{ label: 'root', value: 'root' }],
      },
      key: { kind: 'code' },
    },
    labels: { label: 'Name', user_name: 'System user', key: 'Public key' },
    help: {
      label: 'For you to recognise the key',
      user_name: "root, or one of the server's system users",
      key: 'One line, as in id_ed25519.pub (ssh-ed25519 AAAA… comment)',
    },
    recordRepresentation: 'label',
  },
});

export const resources = { pubkeys, sshconfig };

export const authorizedKeySchema = z.object({
  fingerprint: z.string(),
  type: z.string(),
  comment: z.string(),
});

const none = noArgs;

export const ops = {
  'pubkeys.list': op(
    z.object({ user_name: systemUserName.or(z.literal('root')) }),
    z.array(authorizedKeySchema),
  ),
  'pubkeys.add': op(
    z.object({ user_name: systemUserName.or(z.literal('root')), key: sshPublicKey }),
    authorizedKeySchema,
  ),
  'pubkeys.remove': op(
    z.object({ user_name: systemUserName.or(z.literal('root')), fingerprint: z.string().max(100) }),
    z.object({ removed: z.boolean() }),
  ),

  'sshconfig.get': op(none, sshSettingsSchema),
  /** Written, checked with `sshd -t`, then reloaded; a config sshd refuses is rolled back. */
  'sshconfig.set': op(sshSettingsSchema.partial(), sshSettingsSchema, 60_000),
};
