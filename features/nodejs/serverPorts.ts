/**
 * The port allocator of Node.js apps (research hosting.md 2.4): one row per port and server,
 * the primary key (server, port) makes two installs racing for one port settle in the
 * database, and the port is the app's until the app goes (cascade). The web apps read it here
 * to proxy to it (features/webapps/serverKind.ts specOf reads the table), importing nothing here.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../server/db/database';
import { HttpError } from '../../server/http/errors';
import { PORT_RANGE } from './names';

interface NodePortsTable {
  server_id: number;
  port: number;
  webapp_id: number;
}

declare module '../../server/db/schema' {
  interface Database {
    node_ports: NodePortsTable;
  }
}

export const portsMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('node_ports')
      .addColumn('server_id', 'integer', (c) =>
        c.notNull().references('servers.id').onDelete('cascade'),
      )
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('webapp_id', 'integer', (c) =>
        c.notNull().references('webapps.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('node_ports_pk', ['server_id', 'port'])
      .addUniqueConstraint('node_ports_app', ['webapp_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('node_ports').execute();
  },
};

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
};

/** The port of an app, or null while it has none. */
export async function portOf(db: Db, webappId: number): Promise<number | null> {
  const row = await db
    .selectFrom('node_ports')
    .select('port')
    .where('webapp_id', '=', webappId)
    .executeTakeFirst();
  return row?.port ?? null;
}

/**
 * Gives the app the lowest port of the range that no app of the server holds and nothing on
 * the server listens on (`listening`, read from the server just before). The insert is the
 * claim: a port another install took meanwhile fails the primary key, and the next is tried.
 */
export async function allocatePort(
  db: Db,
  serverId: number,
  webappId: number,
  listening: readonly number[],
): Promise<number> {
  const busy = new Set(listening);
  for (let attempt = 0; attempt < 20; attempt++) {
    const held = await db
      .selectFrom('node_ports')
      .select('port')
      .where('server_id', '=', serverId)
      .execute();
    const taken = new Set([...busy, ...held.map((r) => r.port)]);
    let port: number | null = null;
    for (let p = PORT_RANGE.from; p <= PORT_RANGE.to && port === null; p++)
      if (!taken.has(p)) port = p;
    if (port === null)
      throw new HttpError(409, `Every port from ${PORT_RANGE.from} to ${PORT_RANGE.to} is in use`);
    try {
      await db
        .insertInto('node_ports')
        .values({ server_id: serverId, port, webapp_id: webappId })
        .execute();
      return port;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another install took it, or this app has one already (then that one is its port).
      const own = await portOf(db, webappId);
      if (own !== null) return own;
      busy.add(port);
    }
  }
  throw new HttpError(409, 'Could not claim a free port: too many installs at once, try again');
}

/** Frees the app's port (nothing to free is no error). */
export async function freePort(db: Db, webappId: number): Promise<void> {
  await db.deleteFrom('node_ports').where('webapp_id', '=', webappId).execute();
}
