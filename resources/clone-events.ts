import { z } from 'zod';
import { defineResource } from './define';

/** One step of long work: progress is ten times `code` percent. */
export const taskEventSchema = z.object({ event: z.string(), code: z.number().int() });

/** The long work the messages panel follows: clones, one-click installs, git deploys, Let's
 * Encrypt certificates, backups and restores, 911 scripts. */
export const TASK_KINDS = [
  'clone',
  'install',
  'gitdeploy',
  'certificate',
  'backup',
  'restore',
  // An admin's 911 script on one server (features/emergency-scripts): its output, line by line.
  'script',
] as const;

export const cloneSchema = z.object({
  id: z.number().int(),
  kind: z.enum(TASK_KINDS),
  name: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  created_at: z.string(),
  events: z.array(taskEventSchema),
});
export type Clone = z.infer<typeof cloneSchema>;

/** Clone and install progress for the header's messages panel (`?id=` one task: an install page). */
export const cloneEvents = defineResource({
  name: 'clone-events',
  label: 'Messages',
  schema: cloneSchema,
  paths: { list: 'clone-events/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at'],
      filters: z.object({ id: z.coerce.number().int().positive().optional() }),
    },
  },
});
