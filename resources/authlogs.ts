import { z } from 'zod';
import { defineResource } from './define';

export const authOutcomes = [
  'success',
  'bad_password',
  'unknown_user',
  'unconfirmed',
  'disabled',
  'otp_sent',
  'otp_failed',
  'rate_limited',
] as const;

export type AuthOutcome = (typeof authOutcomes)[number];

export const authlogSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  outcome: z.enum(authOutcomes),
});

/** Sign-in attempts on the account: time, IP, user agent and outcome. */
export const authlogs = defineResource({
  name: 'authlogs',
  label: 'Login Activity',
  schema: authlogSchema,
  paths: { list: 'authlogs/users/{uid}' },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at'],
      filters: z.object({ outcome: z.enum(authOutcomes).optional() }),
    },
  },
  ui: { listFields: ['created_at', 'ip', 'user_agent', 'outcome'] },
});
