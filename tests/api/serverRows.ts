import type { Db } from '../../server/db/database';

/** A system user the panel made on a server (its row, as the agent reported it made). */
export async function addSysuser(
  db: Db,
  serverId: number,
  userName: string,
  status: 'active' | 'pending' | 'failed' = 'active',
): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('sysusers')
    .values({
      server_id: serverId,
      user_name: userName,
      quota_hard: 0,
      quota_soft: 0,
      status,
      error: null,
      error_field: null,
      password_hash: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
