import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file atomically: a new file beside it (O_EXCL, never following a link), fsync,
 * then rename over the old one. Readers see the old file or the new one, never half of it.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Buffer,
  mode: number,
  owner?: { uid: number; gid: number },
): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}`,
  );
  const handle = await fs.open(
    temp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    mode,
  );
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    if (owner) await handle.chown(owner.uid, owner.gid);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  // The rename itself survives a crash once the directory is synced too.
  const dir = await fs.open(path.dirname(file), 'r').catch(() => null);
  await dir?.sync().catch(() => undefined);
  await dir?.close();
}

/**
 * A path inside a directory, resolved without following symlinks out of it: every existing
 * component must be a real directory (or the final file) within `root`. Refuses otherwise.
 */
export async function confinedPath(root: string, relative: string): Promise<string> {
  const base = await fs.realpath(root);
  const target = path.resolve(base, relative);
  if (target !== base && !target.startsWith(base + path.sep))
    throw new Error('path leaves its directory');
  let current = base;
  for (const part of path.relative(base, target).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const stat = await fs.lstat(current).catch(() => null);
    if (!stat) break; // the rest does not exist yet
    if (stat.isSymbolicLink()) throw new Error(`${current} is a symbolic link`);
  }
  return target;
}
