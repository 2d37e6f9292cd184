import { type SelectQueryBuilder, sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import { toCount } from '../db/database';

export interface Page<T> {
  data: T[];
  total: number;
}

/**
 * Applies a list's paging and sorting. `sortable` is the resource's declared allow-list, so a
 * client-chosen column name never reaches SQL unchecked; the first entry is the default.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  sortable: readonly string[],
): Promise<Page<O>> {
  const sortBy = list.sort && sortable.includes(list.sort) ? list.sort : sortable[0];
  const counted = await query
    .clearSelect()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  let rows = query;
  if (sortBy) {
    const direction = list.order === 'ASC' ? sql`asc` : sql`desc`;
    rows = rows
      .orderBy(sql`${sql.ref(sortBy)} ${direction}`)
      .orderBy(sql`${sql.ref('id')} ${direction}`);
  }
  const data = await rows
    .limit(list.perPage)
    .offset((list.page - 1) * list.perPage)
    .execute();
  return { data, total: toCount((counted as { n?: number } | undefined)?.n) };
}

/**
 * `column` contains `text`, ignoring case, the same on SQLite and PostgreSQL (whose LIKE is
 * case-sensitive). `%` and `_` in the text match themselves.
 */
export function containsText(column: string, text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
