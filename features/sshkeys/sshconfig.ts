import { z } from 'zod';
import { tcpPort } from '../../resources/agent/validators';
import { defineResource } from '../../resources/define';

export const sshSettingsSchema = z.object({
  port: tcpPort,
  password_authentication: z.boolean(),
  permit_root_login: z.boolean(),
});
export type SshSettings = z.infer<typeof sshSettingsSchema>;

/** sshd's port, password login and root login (spec `sshconfig`), read live from the server. */
export const sshconfig = defineResource({
  name: 'sshconfig',
  label: 'SSH Settings',
  schema: sshSettingsSchema,
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: 'sshconfig/servers/{sid}/users/{uid}',
      guard: 'self',
      response: sshSettingsSchema,
    },
    change: {
      method: 'PATCH',
      path: 'sshconfig/servers/{sid}/users/{uid}',
      guard: 'self',
      summary: 'Written, checked with `sshd -t`, then reloaded; a refused config is rolled back',
      body: sshSettingsSchema.partial(),
      response: sshSettingsSchema,
    },
  },
});
