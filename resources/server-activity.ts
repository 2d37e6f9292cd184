import { z } from 'zod';
import { defineResource } from './define';

export const activityStatus = z.enum(['pending', 'done', 'failed']);

export const serverActivitySchema = z.object({
  id: z.number().int(),
  message: z.string(),
  /** Every op leaves a line: pending while it runs, then done or failed with the reason. */
  status: activityStatus,
  error: z.string().nullable(),
  /** Set when an admin acted for the user. */
  actor_id: z.number().int().nullable(),
  /** Who did it: the user's email, "admin <email> as <user>", API key "<label>", or system. */
  who: z.string().nullable(),
  created_at: z.string(),
});
export type ServerActivity = z.infer<typeof serverActivitySchema>;

/** What was done on a server, by whom, and how it ended (spec "Activity log": id, message). */
export const serverActivity = defineResource({
  name: 'server-activity',
  label: 'Activity Logs',
  schema: serverActivitySchema,
  paths: { list: 'activity/servers/{sid}/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at'],
      filters: z.object({ status: activityStatus.optional(), q: z.string().max(100).optional() }),
    },
  },
  ui: { listFields: ['created_at', 'who', 'message', 'status', 'error'] },
});
