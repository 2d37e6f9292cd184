/**
 * `GET admin/users` over many accounts (issue 26: 100,000). Without a search, the page's ids are
 * read from the order's index alone (migration 0066) and then their rows, so a page deep down
 * skips index entries rather than rows, and the total is a bare count. With a search, which no
 * index serves (a fragment anywhere in the email or name), the table is scanned once: the page
 * carries the count of all matches (a window), instead of a second scan for the total.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { ListQuery } from '../../resources/define';
import { type Db, toCount } from '../db/database';
import { containsText } from '../repositories/paging';

const COLUMNS = [
  'id',
  'uuid',
  'email',
  'user_name',
  'is_admin',
  'is_admin_staff',
  'plan_id',
  'confirmed',
  'disabled',
  'created_at',
] as const;

/** The resource's sortable columns; the first is the default. */
const SORTS = ['created_at', 'email', 'user_name'] as const;

/**
 * `column` contains `text` ignoring case, as containsText, for less. SQLite's LIKE already
 * ignores the case of ASCII letters, and its lower() changes no other letter, so there a plain
 * LIKE matches the same. Emails are stored in lower case (the schemas' `email` lowers them, and
 * signing in finds them so), so on PostgreSQL too an email is matched without lower(), which
 * costs more than the match itself over 100,000 rows.
 */
function contains(db: Db, column: 'email' | 'user_name', text: string) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres && column !== 'email') return containsText(column, text);
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

export async function listAdminUsers(db: Db, query: ListQuery & { q?: string }) {
  const sortBy = SORTS.find((column) => column === query.sort) ?? SORTS[0];
  const direction = query.order === 'ASC' ? sql`asc` : sql`desc`;
  const offset = (query.page - 1) * query.perPage;
  const ordered = <T extends { orderBy: (e: ReturnType<typeof sql>) => T }>(q: T) =>
    q.orderBy(sql`${sql.ref(sortBy)} ${direction}`).orderBy(sql`${sql.ref('id')} ${direction}`);

  const q = query.q;
  if (q) {
    const matching = db
      .selectFrom('users')
      .where((eb) => eb.or([contains(db, 'email', q), contains(db, 'user_name', q)]));
    const rows = await ordered(
      matching.select(COLUMNS).select(sql<number>`count(*) over ()`.as('matches')),
    )
      .limit(query.perPage)
      .offset(offset)
      .execute();
    // A page past the last match has no row to carry the count: ask for it alone.
    const total = rows.length
      ? toCount(rows[0]!.matches)
      : offset
        ? toCount((await matching.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n)
        : 0;
    return { total, data: rows.map(({ matches: _, ...row }) => row) };
  }

  const [ids, counted] = await Promise.all([
    ordered(db.selectFrom('users').select('id')).limit(query.perPage).offset(offset).execute(),
    db
      .selectFrom('users')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst(),
  ]);
  const rows = ids.length
    ? await db
        .selectFrom('users')
        .select(COLUMNS)
        .where(
          'id',
          'in',
          ids.map((row) => row.id),
        )
        .execute()
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    total: toCount(counted?.n),
    data: ids.flatMap((row) => byId.get(row.id) ?? []),
  };
}
