import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { fetchRelease } from './agentDownload';
import { LIMITS, type Entry, listingProblem, parseTarListing, parseZipListing } from './archive';
import { destinationOf } from './agentDest';
import { debianCopy } from './agentDebian';
import { ops } from './resource';
import type { Format } from './urls';

/** Verified downloads, named by their hash; readable so the user's extraction can read them. */
export const CACHE = process.env.STACKDECK_DL_CACHE ?? '/var/cache/stackdeck/dl';

const extOf = (format: Format) => (format === 'tgz' ? 'tar.gz' : format);

async function hashOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Downloads to `<sha>.part`, hashing the stream; a mismatch deletes it before anything else. */
async function download(url: string, sha256: string, part: string): Promise<void> {
  const res = await fetchRelease(url);
  if (!res.ok || !res.body) throw opFieldError('url', `The download failed: HTTP ${res.status}`);
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > LIMITS.maxBytes) return done(new Error('the download is too large'));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(res.body as WebStream),
      tap,
      createWriteStream(part, { mode: 0o644 }),
    );
  } catch (e) {
    await fs.rm(part, { force: true });
    throw opFieldError('url', `The download failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const got = hash.digest('hex');
  if (got !== sha256) {
    await fs.rm(part, { force: true });
    throw opFieldError('sha256', `The download's SHA-256 is ${got}, not the pinned ${sha256}`);
  }
}

/** The cached verified archive, downloaded when missing (a cached one is hashed again). */
async function verified(url: string, sha256: string, format: Format): Promise<string> {
  await fs.mkdir(CACHE, { recursive: true, mode: 0o711 });
  const file = path.join(CACHE, `${sha256}.${extOf(format)}`);
  if (await fs.stat(file).catch(() => null)) {
    if ((await hashOf(file)) === sha256) return file;
    await fs.rm(file, { force: true });
  }
  const part = path.join(CACHE, `${sha256}.part`);
  await download(url, sha256, part);
  await fs.chmod(part, 0o644);
  await fs.rename(part, file);
  return file;
}

async function listing(file: string, format: Format): Promise<Entry[]> {
  const res =
    format === 'zip'
      ? await run('unzip', ['-Z', file])
      : await run('tar', ['--numeric-owner', '-tvf', file]);
  if (res.code !== 0) throw opFieldError('format', `Not a ${format} archive: ${res.stderr.trim()}`);
  try {
    return format === 'zip' ? parseZipListing(res.stdout) : parseTarListing(res.stdout);
  } catch (e) {
    throw opFieldError('format', e instanceof Error ? e.message : String(e));
  }
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'release.fetch'({ url, sha256, format, dest_user, dest_dir }) {
      const { user, dest, parent } = await destinationOf(dest_user, dest_dir);

      const file = await verified(url, sha256, format);
      const entries = await listing(file, format);
      const problem = listingProblem(entries);
      if (problem) throw opFieldError('url', `Refused: ${problem}`);

      const as = { uid: user.uid, gid: user.gid, timeoutMs: 600_000 };
      const made = await run('mktemp', ['-d', '-p', parent, '.stackdeck-release.XXXXXX'], as);
      const tmp = made.stdout.trim();
      if (made.code !== 0 || !tmp) throw new OpError('failed', `mktemp: ${made.stderr.trim()}`);
      try {
        const res =
          format === 'zip'
            ? await run('unzip', ['-q', '-o', file, '-d', tmp], as)
            : await run(
                'tar',
                [
                  '-xf',
                  file,
                  '-C',
                  tmp,
                  '--no-same-owner',
                  '--no-same-permissions',
                  '--no-overwrite-dir',
                ],
                as,
              );
        if (res.code !== 0)
          throw new OpError('failed', `Extracting failed: ${(res.stderr || res.stdout).trim()}`);
        // Moved and cleaned up as the user too: the folders on the way are the user's, so root
        // never acts on a path the user could have swapped meanwhile.
        const moved = await run('mv', ['-T', '--', tmp, dest], as);
        if (moved.code !== 0) throw new OpError('failed', `mv: ${moved.stderr.trim()}`);
      } catch (e) {
        await run('rm', ['-rf', '--', tmp], as);
        throw e;
      }
      const files = entries.filter((e) => e.type === '-').length;
      const bytes = entries.reduce((n, e) => n + e.size, 0);
      return { path: dest, files, bytes };
    },
    'release.debian': debianCopy,
  },
  // An install of Debian's package waits for any other apt-get of the agent, and for any change
  // of the web server (the package's scripts may touch Apache's config).
  locks: { 'release.debian': () => ['apt', 'webserver'] },
});
