import { sshSettingsSchema } from './agent/ops';
import { defineResource } from './define';

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
