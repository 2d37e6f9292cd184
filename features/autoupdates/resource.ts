/**
 * Automatic updates (spec `thirdpartyupd`: security_update, software_update) through Debian's
 * unattended-upgrades. Read live from apt's own view of its configuration (`apt-config dump`),
 * so what the panel shows is what the nightly run will do, whoever wrote the files.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';

export const autoUpdatesSchema = z.object({
  /** Security updates only (Debian-Security), installed nightly. */
  security_update: z.boolean(),
  /** Other updates too: Debian's point releases and the -updates suite. */
  software_update: z.boolean(),
});
export type AutoUpdates = z.infer<typeof autoUpdatesSchema>;

/** What a GET answers: the settings, and the origins the server's unattended-upgrade allows. */
export const autoUpdatesStateSchema = autoUpdatesSchema.extend({
  /** apt's Unattended-Upgrade::Origins-Pattern as it reads them (`${distro_codename}` kept). */
  origins: z.array(z.string()),
});
export type AutoUpdatesState = z.infer<typeof autoUpdatesStateSchema>;

export const thirdpartyupd = defineResource({
  name: 'thirdpartyupd',
  label: 'Automatic updates',
  schema: autoUpdatesStateSchema,
  paths: {},
  ops: {},
  actions: {
    read: {
      method: 'GET',
      path: 'thirdpartyupd/servers/{sid}/users/{uid}',
      guard: 'self',
      summary: "The server's automatic updates, read from `apt-config dump`",
      response: autoUpdatesStateSchema,
    },
    change: {
      method: 'PATCH',
      path: 'thirdpartyupd/servers/{sid}/users/{uid}',
      guard: 'self',
      summary:
        "Written to apt's configuration and checked with unattended-upgrade's own dry run; a mismatch is rolled back",
      body: autoUpdatesSchema.partial(),
      response: autoUpdatesStateSchema,
    },
  },
});

export const resources = { thirdpartyupd };

export const ops = {
  'autoupdates.get': op(z.object({}), autoUpdatesStateSchema),
  'autoupdates.set': op(autoUpdatesSchema.partial(), autoUpdatesStateSchema, 90_000),
};
