import type { Kysely, Selectable } from 'kysely';
import type { ListQuery } from '../../resources/define';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { pageOf } from '../repositories/paging';
import { HttpError, notFound } from './errors';
import type { HandlerContext } from './handlers';

type Row<T extends keyof Database> = Selectable<Database[T]>;
/** A table's columns by name, as the handlers below write them. */
type Columns = Record<string, unknown>;

export interface CatalogueSpec<T extends keyof Database, Rec, In extends object> {
  /** The table: an `id`, `created_at` and `updated_at` besides the entry's own columns. */
  table: T;
  /** The 404's words: "No such ... in the catalogue". */
  missing: string;
  /** The list's sortable columns (the declaration's), the first the default. */
  sort: readonly string[];
  /** A row as the API answers it. */
  record: (row: Row<T>) => Rec;
  /** The columns an input sets: only the fields it has, so an update changes only those. */
  columns: (input: Partial<In>) => Columns;
  /** What a new entry holds where the input says nothing. */
  defaults?: Columns;
  /**
   * The key no two entries share (the table's unique index): answered as 409 at `field`
   * rather than with the database's error, before the write and again when a concurrent
   * write won the race.
   */
  unique: { columns: readonly string[]; field: string; message: (row: Row<T>) => string };
  /** What the rest of the table follows after a write (one default per app). */
  written?: (db: Db, row: Row<T>) => Promise<void>;
}

const now = () => new Date().toISOString();

/**
 * The CRUD handlers of a table only admins write (the PHP extension catalogue, the app-release
 * catalogue): list, get, create (201), update, delete (answers the removed entry). The feature
 * spreads them into its `defineHandlers` and adds its actions.
 */
export function adminCatalogue<T extends keyof Database, Rec, In extends object>(
  spec: CatalogueSpec<T, Rec, In>,
) {
  // The table is chosen by the caller: the queries here only name `id` and the spec's columns.
  const tables = (db: Db) => db as unknown as Kysely<Record<string, Columns & { id: number }>>;
  const table = spec.table as string;

  async function find(db: Db, id: number): Promise<Row<T> | undefined> {
    const row = await tables(db)
      .selectFrom(table)
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row as Row<T> | undefined;
  }

  async function mustFind(db: Db, id: number): Promise<Row<T>> {
    const row = await find(db, id);
    if (!row) throw notFound(spec.missing);
    return row;
  }

  /** Another entry holds the key of `row` (`self`: the entry being changed). */
  async function checkUnique(db: Db, row: Row<T>, self?: number): Promise<void> {
    const values: Columns = row;
    let query = tables(db).selectFrom(table).select('id');
    for (const column of spec.unique.columns)
      query = query.where(column, '=', values[column] as string);
    if (self !== undefined) query = query.where('id', '!=', self);
    if (await query.executeTakeFirst()) {
      const message = spec.unique.message(row);
      throw new HttpError(409, message, { [spec.unique.field]: message });
    }
  }

  const settled = async (db: Db, id: number) => {
    const row = await mustFind(db, id);
    await spec.written?.(db, row);
    return spec.record(row);
  };

  return {
    find,
    mustFind,
    handlers: {
      list: (ctx: HandlerContext<ListQuery>) =>
        pageOf(tables(ctx.app.db).selectFrom(table).selectAll(), ctx.query, spec.sort).then(
          (page) => ({
            data: page.data.map((row) => spec.record(row as Row<T>)),
            total: page.total,
          }),
        ),
      async get(ctx: HandlerContext) {
        return spec.record(await mustFind(ctx.app.db, Number(ctx.params.id)));
      },
      // The body as the declaration validated it: `defineHandlers` checks it is an `In`.
      async create(ctx: HandlerContext<unknown, In>) {
        const { db } = ctx.app;
        const at = now();
        const values = { ...spec.defaults, ...spec.columns(ctx.body) };
        // The columns about to be written stand for the row (no id yet) in the clash's words.
        const asRow = values as unknown as Row<T>;
        await checkUnique(db, asRow);
        const inserted = await tables(db)
          .insertInto(table)
          .values({ ...values, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
          .catch(async (error: unknown) => {
            await checkUnique(db, asRow);
            throw error;
          });
        ctx.reply.code(201);
        return settled(db, inserted.id);
      },
      async update(ctx: HandlerContext<unknown, Partial<In>>) {
        const { db } = ctx.app;
        const id = Number(ctx.params.id);
        const changes = spec.columns(ctx.body);
        const after = { ...(await mustFind(db, id)), ...changes } as Row<T>;
        await checkUnique(db, after, id);
        await tables(db)
          .updateTable(table)
          .set({ ...changes, updated_at: now() })
          .where('id', '=', id)
          .execute()
          .catch(async (error: unknown) => {
            await checkUnique(db, after, id);
            throw error;
          });
        return settled(db, id);
      },
      async delete(ctx: HandlerContext) {
        const id = Number(ctx.params.id);
        const row = await mustFind(ctx.app.db, id);
        await tables(ctx.app.db).deleteFrom(table).where('id', '=', id).execute();
        return spec.record(row);
      },
    },
  };
}
