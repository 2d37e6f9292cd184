/**
 * The account's backup recovery key (issue 24): made and shown once, with the sheet of where
 * each repository is; afterwards only its state. Never made while an admin acts as the user.
 */
import { z } from 'zod';
import { defineResource } from '../../resources/define';

export const recoveryStatusSchema = z.object({
  /** When the current key was made; null: none yet. */
  created_at: z.string().nullable(),
  /** The account's repositories, and how many the current key opens. */
  repositories: z.number().int(),
  covered: z.number().int(),
});

export const recoveryKeySchema = z.object({
  /** The key: shown this once. */
  key: z.string(),
  created_at: z.string(),
  sheet: z.array(
    z.object({
      server: z.string(),
      storage: z.string(),
      /** What plain restic takes as `-r` (the panel storage's REST address carries its secret). */
      repository: z.string(),
      covered: z.boolean(),
      note: z.string().nullable(),
    }),
  ),
});
export type RecoveryKey = z.infer<typeof recoveryKeySchema>;

export const backupRecoveryKey = defineResource({
  name: 'backup-recovery-key',
  label: 'Backup recovery key',
  parent: 'account',
  schema: recoveryStatusSchema,
  paths: {},
  ops: {},
  actions: {
    status: {
      method: 'GET',
      path: 'backup-recovery-key/users/{uid}',
      guard: 'self',
      response: recoveryStatusSchema,
      summary: 'Whether the account has a recovery key and how many repositories it opens',
    },
    make: {
      method: 'POST',
      path: 'backup-recovery-key/users/{uid}',
      guard: 'self',
      // The key opens every backup of the account: only its owner, never an admin acting.
      forbidWhileActing: true,
      status: 201,
      response: recoveryKeySchema,
      summary: 'Make a new recovery key (it replaces the last in every repository); shown once',
    },
  },
});
