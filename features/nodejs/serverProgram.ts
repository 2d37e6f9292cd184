/**
 * What the panel keeps of a Node.js app's program (migration 0025_node_upload): its entry file
 * and its environment (sealed: it may hold the app's secrets), so that a rebuild of the app
 * (`PATCH webstacks/rebuild/{appId}`, features/webapps/server.ts) writes its supervisor program
 * again from the panel, as every other generated file is. Imports no feature's server.
 */
import type { Kysely } from 'kysely';
import { runOp } from '../../server/agents/runOp';
import type { Db } from '../../server/db/database';
import { fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { SecretBox } from '../../server/auth/secretBox';
import { portOf } from './serverPorts';

interface NodeAppsTable {
  webapp_id: number;
  entry: string;
  /** JSON object of the app's own variables, sealed with the install's key. */
  env: string;
}

declare module '../../server/db/schema' {
  interface Database {
    node_apps: NodeAppsTable;
  }
}

export const programsMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('node_apps')
      .addColumn('webapp_id', 'integer', (c) =>
        c.primaryKey().references('webapps.id').onDelete('cascade'),
      )
      .addColumn('entry', 'text', (c) => c.notNull())
      .addColumn('env', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('node_apps').execute();
  },
};

export interface NodeProgramRecord {
  entry: string;
  env: Record<string, string>;
}

/** Keeps (or replaces) the program's record once the app runs. */
export async function saveProgram(
  db: Db,
  box: SecretBox,
  webappId: number,
  p: NodeProgramRecord,
): Promise<void> {
  const env = box.seal(JSON.stringify(p.env));
  await db
    .insertInto('node_apps')
    .values({ webapp_id: webappId, entry: p.entry, env })
    .onConflict((oc) => oc.column('webapp_id').doUpdateSet({ entry: p.entry, env }))
    .execute();
}

export async function programOf(
  db: Db,
  box: SecretBox,
  webappId: number,
): Promise<NodeProgramRecord | null> {
  const row = await db
    .selectFrom('node_apps')
    .selectAll()
    .where('webapp_id', '=', webappId)
    .executeTakeFirst();
  if (!row) return null;
  return { entry: row.entry, env: JSON.parse(box.open(row.env)) as Record<string, string> };
}

/**
 * The rebuild's part for a Node.js app: its program written again (port, entry, environment
 * from the panel) and supervisor reloaded, proven by an answer on its port. An app installed
 * before the panel kept its program has nothing to write from, and is left as it is.
 */
export async function rebuildNodeProgram(
  ctx: HandlerContext<unknown, unknown>,
  app: { id: number; name: string; sys_user: string },
): Promise<void> {
  const port = await portOf(ctx.app.db, app.id);
  const program = await programOf(ctx.app.db, ctx.app.services.box, app.id);
  if (port === null || !program) return;
  await runOp(ctx, `Rewrite the supervisor program of ${app.name}`, 'node.start', {
    user: app.sys_user,
    app: app.name,
    entry: program.entry,
    port,
    env: program.env,
  });
}

/**
 * An app's program file is `stackdeck-<app>.conf`, as a supervisor job's would be: a name one
 * of the server's supervisor jobs has is refused at the name field.
 */
export async function refuseJobName(ctx: HandlerContext, name: string): Promise<void> {
  const job = await ctx.app.db
    .selectFrom('svjobs')
    .select('id')
    .where('server_id', '=', ctx.server.id)
    .where('name', '=', name)
    .executeTakeFirst();
  if (job) throw fieldError('name', 'A supervisor job of this server has this name');
}
