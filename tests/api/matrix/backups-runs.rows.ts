import { type Fixture, type Row, SELF, appOn } from './support';
import { insertPolicy } from '../backupPolicyRow';

/**
 * Backups' runs and files: back up now, restore, delete one file, delete a whole backup, and a
 * file's download. Each role gets a fresh policy (a run under way refuses the next "now") on
 * the fixture server, with one failed run (no snapshot) where a file is named.
 */
async function freshPolicy(f: Fixture): Promise<number> {
  return insertPolicy(f.t.app.db, {
    user_id: f.owner.id,
    server_id: f.serverId,
    type: 'webapp',
    webapp_id: await appOn(f.t, f.serverId),
    subject: 'shop',
  });
}

/** A failed run of a fresh policy: a file without a snapshot. */
async function failedFile(f: Fixture): Promise<{ policy: number; file: number }> {
  const policy = await freshPolicy(f);
  const at = new Date().toISOString();
  const row = await f.t.app.db
    .insertInto('backup_runs')
    .values({
      backup_id: policy,
      status: 'failed',
      trigger: 'manual',
      error: 'The server was offline',
      created_at: at,
      ended_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { policy, file: row.id };
}

/** A previous copy a restore of a fresh policy's file kept on the fixture server (offline). */
async function keptCopy(f: Fixture): Promise<{ policy: number; restore: number }> {
  const { policy, file } = await failedFile(f);
  const row = await f.t.app.db
    .insertInto('backup_restores')
    .values({
      user_id: f.owner.id,
      backup_id: policy,
      run_id: file,
      server_id: f.serverId,
      kind: 'files',
      sys_user: 'shopper',
      previous: '/home/shopper/apps/shop.before-restore-20260101000000',
      state: 'kept',
      created_at: new Date().toISOString(),
      dropped_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { policy, restore: row.id };
}

/** Reached, but a file without a snapshot cannot be restored or downloaded. */
const NO_SNAPSHOT = { ...SELF, owner: 409, admin: 409, acting: 409 };

export const rows: Row[] = [
  {
    route: 'PATCH /api/v1/backup-now/users/:uid',
    query: async (f) => `?bid=${await freshPolicy(f)}`,
    expect: SELF,
  },
  {
    route: 'PATCH /api/v1/restore-backups/users/:uid',
    body: async (f) => ({ file_id: (await failedFile(f)).file, mode: 'replace' }),
    expect: NO_SNAPSHOT,
  },
  {
    // Reached; the fixture server is never connected, so the kept copy cannot go yet.
    route: 'PATCH /api/v1/keep-restores/:backupId/users/:uid',
    params: async (f) => ({ backupId: (await keptCopy(f)).policy }),
    body: async (f) => ({
      restore_id: (
        await f.t.app.db
          .selectFrom('backup_restores')
          .select('id')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).id,
    }),
    expect: NO_SNAPSHOT,
  },
  {
    route: 'DELETE /api/v1/remove-backups/users/:uid',
    query: async (f) => {
      const { policy, file } = await failedFile(f);
      return `?sid=${policy}&file_id=${file}`;
    },
    expect: SELF,
  },
  {
    route: 'DELETE /api/v1/total-backups/:backupId/users/:uid',
    params: async (f) => ({ backupId: await freshPolicy(f) }),
    expect: SELF,
  },
  {
    route: 'GET /api/v1/backup-files/:fileId/download/users/:uid',
    params: async (f) => ({ fileId: (await failedFile(f)).file }),
    expect: NO_SNAPSHOT,
  },
];
