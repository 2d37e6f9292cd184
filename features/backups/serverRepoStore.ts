/**
 * The files of the panel's restic repositories: one directory per repository under
 * `<dataDir>/backups/`, laid out as restic's local backend lays them out (`config`, `keys/`,
 * `locks/`, `snapshots/`, `index/`, `data/<2 hex>/`), so the panel can run plain
 * `restic -r <dir>` (forget, prune, check) on the same files the REST routes serve.
 *
 * Every path is built here from validated names only (a repository's uuid, an object type, 64
 * hex characters) and checked to stay inside the root: nothing a request names can reach a file
 * outside its repository.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const OBJECT_TYPES = ['data', 'keys', 'locks', 'snapshots', 'index'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

const REPO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OBJECT_NAME = /^[0-9a-f]{64}$/;

export const isRepoId = (value: string): boolean => REPO_ID.test(value);
export const isObjectName = (value: string): boolean => OBJECT_NAME.test(value);
export const isObjectType = (value: string): value is ObjectType =>
  (OBJECT_TYPES as readonly string[]).includes(value);

/** What a request names in a repository: its config file or one object. */
export type Entry = { kind: 'config' } | { kind: 'object'; type: ObjectType; name: string };

export class RepoPathError extends Error {}

export interface Listed {
  name: string;
  size: number;
}

export class RepoStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The repository's directory; throws on a name that is not a repository id. */
  dirOf(repoId: string): string {
    if (!isRepoId(repoId)) throw new RepoPathError('not a repository id');
    return this.confined(path.join(this.root, repoId));
  }

  /** The file of an entry (data objects sit under the first two hex characters of their name). */
  pathOf(repoId: string, entry: Entry): string {
    const dir = this.dirOf(repoId);
    if (entry.kind === 'config') return path.join(dir, 'config');
    if (!isObjectType(entry.type) || !isObjectName(entry.name))
      throw new RepoPathError('not an object name');
    const parts =
      entry.type === 'data'
        ? ['data', entry.name.slice(0, 2), entry.name]
        : [entry.type, entry.name];
    return this.confined(path.join(dir, ...parts));
  }

  /** Creates the repository's directories (again: idempotent, like rest-server's `create`). */
  async create(repoId: string): Promise<void> {
    const dir = this.dirOf(repoId);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    for (const type of OBJECT_TYPES) await fs.mkdir(path.join(dir, type), { recursive: true });
    await Promise.all(
      Array.from({ length: 256 }, (_, i) =>
        fs.mkdir(path.join(dir, 'data', i.toString(16).padStart(2, '0')), { recursive: true }),
      ),
    );
  }

  async exists(repoId: string): Promise<boolean> {
    return (await sizeOf(this.dirOf(repoId))) !== null;
  }

  /** The entry's size, or null when there is no such file. */
  async size(repoId: string, entry: Entry): Promise<number | null> {
    return sizeOf(this.pathOf(repoId, entry));
  }

  /**
   * The objects of one type, or null when the repository has no such directory. Unfinished
   * writes (temporary files) are not objects and are left out.
   */
  async list(repoId: string, type: ObjectType): Promise<Listed[] | null> {
    const dir = path.join(this.dirOf(repoId), type);
    const dirs = type === 'data' ? await subdirs(dir) : [dir];
    if (!dirs) return null;
    const listed: Listed[] = [];
    for (const d of dirs) {
      for (const name of (await readdir(d)) ?? []) {
        if (!isObjectName(name)) continue;
        const size = await sizeOf(path.join(d, name));
        if (size !== null) listed.push({ name, size });
      }
    }
    return listed;
  }

  /** Removes an entry; false when it was not there. */
  async remove(repoId: string, entry: Entry): Promise<boolean> {
    try {
      await fs.unlink(this.pathOf(repoId, entry));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** The bytes the repository takes: every file's size (what metering bills). */
  async bytesUsed(repoId: string): Promise<number> {
    return treeSize(this.dirOf(repoId));
  }

  /** Removes the whole repository (its row goes with it, by the caller). */
  async destroy(repoId: string): Promise<void> {
    await fs.rm(this.dirOf(repoId), { recursive: true, force: true });
  }

  /** A path that resolves outside the root is refused, whatever built it. */
  private confined(candidate: string): string {
    const resolved = path.resolve(candidate);
    const rel = path.relative(this.root, resolved);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel))
      throw new RepoPathError('outside the storage');
    return resolved;
  }
}

/** The sha256 a restic object must hash to: its name. */
export const objectHash = () => createHash('sha256');

export const isMissing = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException).code === 'ENOENT';

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).size;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function readdir(dir: string): Promise<string[] | null> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function subdirs(dir: string): Promise<string[] | null> {
  const names = await readdir(dir);
  return names && names.filter((n) => /^[0-9a-f]{2}$/.test(n)).map((n) => path.join(dir, n));
}

async function treeSize(dir: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await treeSize(full);
    else if (entry.isFile()) total += (await sizeOf(full)) ?? 0;
  }
  return total;
}
