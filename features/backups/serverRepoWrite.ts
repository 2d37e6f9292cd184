/**
 * One upload into a repository, streamed to disk: never held in memory (a data pack is tens of
 * megabytes), hashed on the way, written to a temporary file beside its target, synced, then
 * hard-linked into place. The link fails when the name exists, so an object is never overwritten,
 * not even by two uploads racing; a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Entry, type RepoStore, isMissing, objectHash } from './serverRepoStore';

/** restic 0.14 packs are 16 MiB by default and at most 128 MiB (`--pack-size`): room to spare. */
export const MAX_OBJECT_BYTES = 512 * 1024 * 1024;

export type WriteOutcome =
  | 'created'
  /** The name exists already: append-only storage never replaces a file. */
  | 'exists'
  /** The content's sha256 is not the object's name (restic names every object by its hash). */
  | 'mismatch'
  | 'too-large'
  | 'no-repo'
  | 'no-space'
  /** The client stopped sending before the end. */
  | 'aborted';

class TooLarge extends Error {}

export async function writeEntry(
  store: RepoStore,
  repoId: string,
  entry: Entry,
  source: Readable,
  maxBytes = MAX_OBJECT_BYTES,
): Promise<WriteOutcome> {
  const target = store.pathOf(repoId, entry);
  if (!(await store.exists(repoId))) return 'no-repo';
  if ((await store.size(repoId, entry)) !== null) return 'exists';
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Not a 64-hex name: listings skip it, and no request can name it.
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const hash = objectHash();
  const file = await fs.open(temp, 'wx', 0o600);
  let size = 0;
  // A plain sink on the handle: fs write streams opened with autoClose off never settle a
  // pipeline, and the handle must stay open for the sync below.
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TooLarge());
      hash.update(chunk);
      writeAll(file, chunk).then(() => done(), done);
    },
  });
  let closed = false;
  try {
    await pipeline(source, sink);
    if (entry.kind === 'object' && hash.digest('hex') !== entry.name) return 'mismatch';
    await file.sync();
    await file.close();
    closed = true;
    try {
      await fs.link(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
      throw error;
    }
    await syncDir(dir);
    return 'created';
  } catch (error) {
    if (error instanceof TooLarge) return 'too-large';
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return 'no-space';
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET') return 'aborted';
    throw error;
  } finally {
    if (!closed) await file.close().catch(() => undefined);
    await fs.unlink(temp).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  }
}

async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let at = 0; at < chunk.length;) {
    at += (await file.write(chunk, at, chunk.length - at)).bytesWritten;
  }
}

/** The new name survives a crash only once its directory is synced too. */
async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
