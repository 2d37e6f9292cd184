import type { Kysely } from 'kysely';
import type { ListQuery } from '../../resources/define';
import { type Db, now } from '../db/database';
import { type Page, pageOf } from '../repositories/paging';
import type { ManagedRow, ManagedStatus } from './table';

/** What settles a row after the server answered. */
export type Outcome =
  { status: 'active' } | { status: 'failed'; error: string; field?: string | undefined };

/** A list narrowing: a column equal to a value, or `{ ne }` different from it. */
export type Where = Record<string, string | number | { ne: string | number }>;

/**
 * The rows of one server-managed table, always through their server: every read and write
 * names `server_id`, so no call here can reach another server's row. Generic over the
 * feature's row type; the table name comes from the feature's declaration, never a request.
 */
export class ManagedStore<Row extends ManagedRow = ManagedRow> {
  // The table is the feature's: its typed columns are the feature's business, so queries here
  // work below the typed schema (the names are constants of the declaration).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  private readonly db: Kysely<any>;

  constructor(
    db: Db,
    readonly table: string,
  ) {
    this.db = db;
  }

  /** A page of the server's rows; `where` narrows by the feature's own columns. */
  list(
    serverId: number,
    query: ListQuery,
    sortable: readonly string[],
    where: Where = {},
  ): Promise<Page<Row>> {
    return pageOf(this.rows(serverId, where), query, sortable) as Promise<Page<Row>>;
  }

  /** Every row of the server (the read-back compares them all), optionally narrowed. */
  all(serverId: number, where: Where = {}): Promise<Row[]> {
    return this.rows(serverId, where).orderBy('id').execute() as Promise<Row[]>;
  }

  private rows(serverId: number, where: Where) {
    let q = this.db.selectFrom(this.table).selectAll().where('server_id', '=', serverId);
    for (const [column, value] of Object.entries(where)) {
      q = typeof value === 'object' ? q.where(column, '!=', value.ne) : q.where(column, '=', value);
    }
    return q;
  }

  async find(serverId: number, key: string, value: string | number): Promise<Row | undefined> {
    return (await this.db
      .selectFrom(this.table)
      .selectAll()
      .where('server_id', '=', serverId)
      .where(key, '=', value)
      .executeTakeFirst()) as Row | undefined;
  }

  /** Writes the desired row, pending until the server confirms it. */
  async insert(serverId: number, values: Record<string, unknown>): Promise<Row> {
    const at = now();
    const row = await this.db
      .insertInto(this.table)
      .values({
        ...values,
        server_id: serverId,
        status: 'pending' satisfies ManagedStatus,
        error: null,
        error_field: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return row as Row;
  }

  /** New desired values (or only a new status): pending again until the server confirms. */
  async change(
    row: Row,
    values: Record<string, unknown>,
    status: ManagedStatus = 'pending',
  ): Promise<Row> {
    const next = await this.db
      .updateTable(this.table)
      .set({ ...values, status, error: null, error_field: null, updated_at: now() })
      .where('id', '=', row.id)
      .where('server_id', '=', row.server_id)
      .returningAll()
      .executeTakeFirst();
    return (next as Row | undefined) ?? row;
  }

  /**
   * The server's answer: active (its transient columns dropped), or failed with its message at
   * the field it concerns. Only a row still as it was asked is settled: one marked for removal
   * (or changed again) meanwhile keeps its new state, and is answered as it is now.
   */
  async settle(row: Row, outcome: Outcome, transient: readonly string[] = []): Promise<Row> {
    const active = outcome.status === 'active';
    const next = await this.db
      .updateTable(this.table)
      .set({
        status: outcome.status,
        error: outcome.status === 'failed' ? outcome.error.slice(0, 2000) : null,
        error_field: outcome.status === 'failed' ? (outcome.field ?? null) : null,
        updated_at: now(),
        ...(active ? Object.fromEntries(transient.map((column) => [column, null])) : {}),
      })
      .where('id', '=', row.id)
      .where('server_id', '=', row.server_id)
      .where('status', '=', row.status)
      .where('updated_at', '=', row.updated_at)
      .returningAll()
      .executeTakeFirst();
    if (next) return next as Row;
    return (await this.find(row.server_id, 'id', row.id)) ?? { ...row, ...outcome };
  }

  async remove(row: Row): Promise<void> {
    await this.db
      .deleteFrom(this.table)
      .where('id', '=', row.id)
      .where('server_id', '=', row.server_id)
      .execute();
  }

  /** Rows still waiting for their server (pending or deleting) that nobody touched since `before`. */
  unsettled(serverId: number, before: string): Promise<Row[]> {
    return this.db
      .selectFrom(this.table)
      .selectAll()
      .where('server_id', '=', serverId)
      .where('status', 'in', ['pending', 'deleting'])
      .where('updated_at', '<', before)
      .orderBy('id')
      .execute() as Promise<Row[]>;
  }
}
