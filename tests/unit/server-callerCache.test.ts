import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallerCache, CallerChanges, callerChanges } from '../../server/auth/callerCache';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The files allowed to write the tables a resolved caller is read from: each announces its
 * writes (repositories on `callerChanges`, sessions to its revoke listeners). Migrations run
 * before the panel serves, so before anything is cached.
 */
const WRITERS: Record<string, readonly string[]> = {
  users: ['server/repositories/users.ts'],
  user_photos: ['server/repositories/users.ts'],
  api_keys: ['server/repositories/users.ts', 'server/repositories/apiKeys.ts'],
  sessions: ['server/auth/sessions.ts'],
};

/** A row lock that writes nothing (`updated_at` set to itself) changes no caller. */
const NO_OP_LOCK = /^\s*\.set\(\(eb\) => \(\{ updated_at: eb\.ref\('updated_at'\) \}\)\)/;

describe('writes that can change a resolved caller', () => {
  it('go only through the files that invalidate the caller cache', () => {
    const builder =
      /\b(updateTable|deleteFrom|insertInto|mergeInto|replaceInto)\(\s*['"`](users|user_photos|api_keys|sessions)\b[^)]*\)/g;
    const raw =
      /\b(update|delete\s+from|insert\s+into|replace\s+into)\s+["`]?(users|user_photos|api_keys|sessions)\b/gi;
    const offenders: string[] = [];
    const files = [
      ...sourceFiles(path.join(root, 'server')),
      ...sourceFiles(path.join(root, 'resources')),
    ];
    for (const file of files) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (rel.startsWith('server/db/migrations/') || rel === 'server/db/migrate.ts') continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of [builder, raw]) {
        for (const match of text.matchAll(pattern)) {
          const table = match[2]!.toLowerCase();
          if (WRITERS[table]?.includes(rel)) continue;
          const after = text.slice(
            match.index + match[0].length,
            match.index + match[0].length + 120,
          );
          if (table === 'users' && NO_OP_LOCK.test(after)) continue;
          const line = text.slice(0, match.index).split('\n').length;
          offenders.push(`${rel}:${line} ${match[0]}`);
        }
      }
    }
    // Write through UserRepository / ApiKeyRepository / Sessions instead (or announce the user on
    // callerChanges(db) after the commit and list the file in WRITERS).
    expect(offenders).toEqual([]);
  });
});

describe('CallerCache', () => {
  const owner = { userId: 1, actorId: null };

  it('keeps a value for its maximum age only', () => {
    let now = 1000;
    const cache = new CallerCache<string>(30_000, 10, () => now);
    cache.set('s:a', 'alice', owner, cache.generation());
    expect(cache.get('s:a')).toBe('alice');
    now += 29_999;
    expect(cache.get('s:a')).toBe('alice');
    now += 1;
    expect(cache.get('s:a')).toBeUndefined();
  });

  it('drops the least recently used first', () => {
    const cache = new CallerCache<string>(30_000, 2);
    cache.set('a', 'A', owner, cache.generation());
    cache.set('b', 'B', owner, cache.generation());
    cache.get('a');
    cache.set('c', 'C', owner, cache.generation());
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', undefined, 'C']);
    expect(cache.count).toBe(2);
  });

  it('refuses a value read before an invalidation', () => {
    const cache = new CallerCache<string>();
    const generation = cache.generation();
    cache.deleteUser(7); // a change lands while the read is in flight
    cache.set('s:a', 'stale', owner, generation);
    expect(cache.get('s:a')).toBeUndefined();
  });

  it("drops a user's entries and the impersonation entries they act in", () => {
    const cache = new CallerCache<string>();
    cache.set('s:own', 'own', { userId: 1, actorId: null }, cache.generation());
    cache.set('k:key', 'key', { userId: 1, actorId: null }, cache.generation());
    cache.set('s:acting', 'acting', { userId: 2, actorId: 1 }, cache.generation());
    cache.set('s:other', 'other', { userId: 3, actorId: null }, cache.generation());
    cache.deleteUser(1);
    expect(['s:own', 'k:key', 's:acting', 's:other'].map((k) => cache.get(k))).toEqual([
      undefined,
      undefined,
      undefined,
      'other',
    ]);
  });

  it('has one bus per database handle', () => {
    const db = {};
    expect(callerChanges(db)).toBe(callerChanges(db));
    expect(callerChanges(db)).toBeInstanceOf(CallerChanges);
    expect(callerChanges({})).not.toBe(callerChanges(db));
    const heard: number[] = [];
    const stop = callerChanges(db).listen((id) => heard.push(id));
    callerChanges(db).user(4);
    stop();
    callerChanges(db).user(5);
    expect(heard).toEqual([4]);
  });
});
