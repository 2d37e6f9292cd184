import SQLite from '../../server/db/sqliteDriver';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../server/db/database';

describe('withStatementCache', () => {
  it('reuses a statement for the same SQL and keeps results right', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec(
      "create table t(id integer primary key, v text); insert into t values (1, 'a'), (2, 'b')",
    );
    const db = withStatementCache(sqlite);
    const first = db.prepare('select v from t where id = ?');
    expect(db.prepare('select v from t where id = ?')).toBe(first);
    expect(first.get(1)).toEqual({ v: 'a' });
    expect(db.prepare('select v from t where id = ?').get(2)).toEqual({ v: 'b' });
    expect(db.prepare('select count(*) n from t')).not.toBe(first);
  });

  it('evicts the least recently used statement past its size', () => {
    const sqlite = new SQLite(':memory:');
    const db = withStatementCache(sqlite, 2);
    const one = db.prepare('select 1');
    const two = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(one); // now "select 2" is the oldest
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(one);
    expect(db.prepare('select 2')).not.toBe(two);
  });
});
