import { z } from 'zod';
import { defineResource } from './define';

export const outboxSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});

/** Every mail the panel sent or queued. On the embedded default this is the only delivery. */
export const outbox = defineResource({
  name: 'outbox',
  scope: 'panel',
  label: 'Outbox',
  schema: outboxSchema,
  paths: { list: 'admin/outbox', one: 'admin/outbox/{id}' },
  ops: {
    list: {
      guard: 'admin',
      sort: ['created_at'],
      filters: z.object({ q: z.string().max(254).optional() }),
    },
    get: { guard: 'admin' },
  },
  ui: {
    listFields: ['created_at', 'to', 'subject', 'sent_at', 'error'],
    recordRepresentation: 'subject',
  },
});
