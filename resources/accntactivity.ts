import { z } from 'zod';
import { defineResource } from './define';

export const accountActivitySchema = z.object({
  id: z.number().int(),
  message: z.string(),
  created_at: z.string(),
  ip: z.string(),
  /** Set when an admin did this while acting as the user. */
  actor_id: z.number().int().nullable(),
  /** Who did it: the user's email, "admin <email> as <user>", API key "<label>", or system. */
  who: z.string().nullable(),
});

/** What happened on the account, and who did it. */
export const accntactivity = defineResource({
  name: 'accntactivity',
  label: 'Account Activity Log',
  schema: accountActivitySchema,
  paths: { list: 'accntactivity/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at'],
      filters: z.object({ q: z.string().max(100).optional() }),
    },
  },
  ui: { listFields: ['created_at', 'who', 'message', 'ip'] },
});
