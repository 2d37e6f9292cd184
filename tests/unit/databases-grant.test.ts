import { describe, expect, it } from 'vitest';
import { grantTarget, unescapeGrant } from '../../features/databases/sql';

/**
 * A database named in a GRANT is a LIKE pattern to MariaDB: `_` matches any character and `%`
 * any run. Unescaped, a grant on `my_db` would also reach another user's `myxdb`.
 */
function reaches(target: string, database: string): boolean {
  const pattern = /^`(.*)`\.\*$/.exec(target)![1]!;
  const regex = pattern.replace(/\\([_%])|([_%])|([^_%\\]+)/g, (_, escaped, wild, text) =>
    escaped
      ? `\\${escaped}`
      : wild
        ? wild === '_'
          ? '.'
          : '.*'
        : String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(`^${regex}$`).test(database);
}

describe('GRANT patterns of a database', () => {
  it('reach the named database only, never one its `_` would match as a wildcard', () => {
    const target = grantTarget('my_db');
    expect(reaches(target, 'my_db')).toBe(true);
    expect(reaches(target, 'myxdb')).toBe(false);
    expect(reaches(target, 'my1db')).toBe(false);
    expect(unescapeGrant(/^`(.*)`/.exec(target)![1]!)).toBe('my_db');
  });
});
