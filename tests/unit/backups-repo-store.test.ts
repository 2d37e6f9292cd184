import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicCredentials } from '../../features/backups/serverRepoAuth';
import { parseRange } from '../../features/backups/serverRepoRange';
import {
  RepoPathError,
  RepoStore,
  isObjectName,
  isRepoId,
} from '../../features/backups/serverRepoStore';
import { writeEntry } from '../../features/backups/serverRepoWrite';

let root: string;
let store: RepoStore;
const id = randomUUID();
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const body = (text: string) => Readable.from([Buffer.from(text)]);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-repo-store-'));
  store = new RepoStore(path.join(root, 'backups'));
  await store.create(id);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the repository store', () => {
  it('accepts only uuids as repositories and 64 lower-case hex as objects', () => {
    expect(isRepoId(id)).toBe(true);
    for (const bad of ['', '..', '../x', id.toUpperCase(), `${id}/..`, 'a'.repeat(36)])
      expect(isRepoId(bad), bad).toBe(false);
    expect(isObjectName('ab'.repeat(32))).toBe(true);
    for (const bad of ['AB'.repeat(32), 'ab'.repeat(31), `${'ab'.repeat(31)}/.`, '../'.repeat(22)])
      expect(isObjectName(bad), bad).toBe(false);
  });

  it('builds paths inside the repository only, and refuses anything else', () => {
    const name = 'ab'.repeat(32);
    expect(store.pathOf(id, { kind: 'object', type: 'data', name })).toBe(
      path.join(store.root, id, 'data', 'ab', name),
    );
    expect(store.pathOf(id, { kind: 'object', type: 'keys', name })).toBe(
      path.join(store.root, id, 'keys', name),
    );
    expect(() => store.dirOf('../etc')).toThrow(RepoPathError);
    expect(() => store.pathOf(id, { kind: 'object', type: 'keys', name: '../../../x' })).toThrow(
      RepoPathError,
    );
    expect(() =>
      store.pathOf(id, { kind: 'object', type: '../x' as 'keys', name: 'ab'.repeat(32) }),
    ).toThrow(RepoPathError);
  });

  it('writes an object once, only under its sha256, and lists it without temporary files', async () => {
    const content = Buffer.from('snapshot');
    const entry = { kind: 'object', type: 'snapshots', name: sha(content) } as const;
    expect(await writeEntry(store, id, entry, body('snapshot'))).toBe('created');
    expect(await writeEntry(store, id, entry, body('snapshot'))).toBe('exists');
    const wrong = { kind: 'object', type: 'snapshots', name: 'cd'.repeat(32) } as const;
    expect(await writeEntry(store, id, wrong, body('snapshot'))).toBe('mismatch');
    const big = { kind: 'object', type: 'data', name: sha(Buffer.alloc(100)) } as const;
    expect(await writeEntry(store, id, big, Readable.from([Buffer.alloc(100)]), 50)).toBe(
      'too-large',
    );
    expect(await store.list(id, 'snapshots')).toEqual([{ name: sha(content), size: 8 }]);
    expect(fs.readdirSync(path.join(store.root, id, 'snapshots'))).toEqual([sha(content)]);
    expect(fs.readdirSync(path.join(store.root, id, 'data', big.name.slice(0, 2)))).toEqual([]);
    expect(await store.bytesUsed(id)).toBe(8);
    const other = randomUUID();
    expect(await writeEntry(store, other, entry, body('snapshot'))).toBe('no-repo');
  });

  it('reads Basic credentials and the Range forms restic sends', () => {
    const header = `Basic ${Buffer.from(`${id}:se:cret`).toString('base64')}`;
    expect(basicCredentials(header)).toEqual({ user: id, pass: 'se:cret' });
    expect(basicCredentials('Bearer x')).toBeNull();
    expect(parseRange('bytes=10-19', 100)).toEqual({ kind: 'part', start: 10, end: 19 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ kind: 'part', start: 95, end: 99 });
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange(undefined, 100)).toEqual({ kind: 'whole' });
  });
});
