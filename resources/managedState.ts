import { z } from 'zod';

/** Where a server-managed row stands: pending until its server confirms it. */
export const managedStatus = z.enum(['pending', 'active', 'failed', 'deleting']);

/**
 * The fields every server-managed record carries (README "Adding a resource"), spread into
 * its schema: its status on the server, the server's refusal at the field it concerns, the
 * drift `?sync=true` found, and its times.
 */
export const managedState = {
  /** Where the row stands on its server: pending until the server confirms it. */
  status: managedStatus,
  /** The server's refusal, at the field it concerns. */
  error: z.string().nullable(),
  error_field: z.string().nullable(),
  /** With `?sync=true`: how the server differs (missing, changed), or null. */
  drift: z.enum(['missing', 'changed']).nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
};
