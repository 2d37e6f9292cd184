import type { Insertable } from 'kysely';
import type { Db } from '../../server/db/database';
import type { BackupPoliciesTable } from '../../features/backups/serverTables';

type Policy = Insertable<BackupPoliciesTable>;

/**
 * A backup policy row written straight to the database (the API tests' and matrix rows'
 * fixture): a daily database policy on the panel's storage unless told otherwise.
 */
export async function insertPolicy(
  db: Db,
  given: Pick<Policy, 'user_id' | 'server_id'> & Partial<Policy>,
): Promise<number> {
  const stamp = new Date().toISOString();
  const row = await db
    .insertInto('backup_policies')
    .values({
      type: 'database',
      webapp_id: null,
      database_id: null,
      subject: 'fixture',
      target_id: null,
      frequency: 'daily',
      at: '03:00',
      weekday: 0,
      day: 1,
      timezone: 'UTC',
      keep_last: 7,
      keep_daily: 7,
      keep_weekly: 4,
      keep_monthly: 6,
      excludes: '[]',
      upload_limit_kib: null,
      gentle: 1,
      enabled: 1,
      created_at: stamp,
      updated_at: stamp,
      ...given,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
