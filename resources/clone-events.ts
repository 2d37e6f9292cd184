import { z } from 'zod';
import { defineResource } from './define';

/** One step of long work: progress is ten times `code` percent. */
export const taskEventSchema = z.object({ event: z.string(), code: z.number().int() });

export const cloneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  created_at: z.string(),
  events: z.array(taskEventSchema),
});
export type Clone = z.infer<typeof cloneSchema>;

/** Clone progress for the header's messages panel; filled by the web-app issues. */
export const cloneEvents = defineResource({
  name: 'clone-events',
  label: 'Messages',
  schema: cloneSchema,
  paths: { list: 'clone-events/users/{uid}' },
  ops: { list: { guard: 'self', sort: ['created_at'] } },
});
