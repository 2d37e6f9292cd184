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

/**
 * A custom web app on nginx as if the server had made it (its row, active): for tests whose
 * subject is something of an app (its backups, its mailboxes), not the app's making. Its id.
 */
export async function addWebapp(
  db: Db,
  serverId: number,
  app: { name: string; domains: string[]; sysUser: string },
): Promise<number> {
  const at = new Date().toISOString();
  const row = await db
    .insertInto('webapps')
    .values({
      server_id: serverId,
      status: 'active',
      error: null,
      error_field: null,
      created_at: at,
      updated_at: at,
      name: app.name,
      webapp_type: 'custom',
      stack_type: 'nginx',
      php_version: '8.2',
      domains: JSON.stringify(app.domains),
      web_root: '',
      php_settings: '{}',
      sys_user: app.sysUser,
      parent_id: null,
      cache: null,
      limits: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
