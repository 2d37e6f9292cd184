/**
 * clone.files: an app's folder into another user's app folder, never read or written as root.
 * The source user lists what it can read (find), its tar packs exactly that list, the target
 * user's tar unpacks it; the agent only carries the bytes between them and counts them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { confinedPath } from '../../agent/lib/files';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';
import type { OpContext } from '../../agent/ops/types';
import { lastLine, pipeCounted, runBytes, splitNul } from './agentPipe';

/** A regular user whose home is /home/<name>, and an app folder of it reached without links. */
async function appFolder(
  name: string,
  dir: string,
  fields: { user: string; dir: string },
): Promise<{ user: PasswdEntry; dir: string }> {
  const user = await lookupUser(name);
  if (!user || !isRegularUser(user))
    throw opFieldError(fields.user, `No regular system user ${name} on this server`);
  const home = await fs.realpath(user.home).catch(() => null);
  if (home !== `/home/${name}`)
    throw opFieldError(fields.user, `${name}'s home is not /home/${name}`);
  if (!dir.startsWith(`${home}/apps/`))
    throw opFieldError(fields.dir, `An app folder of ${name}: ${home}/apps/<app>`);
  const resolved = await confinedPath(home, path.relative(home, dir)).catch(() => null);
  const stat = resolved ? await fs.lstat(resolved).catch(() => null) : null;
  if (!resolved || !stat?.isDirectory())
    throw opFieldError(fields.dir, `${dir} must be an existing folder, reached without links`);
  if (stat.uid !== user.uid) throw opFieldError(fields.dir, `${dir} does not belong to ${name}`);
  return { user, dir: resolved };
}

interface Listing {
  /** `./relative` names for tar, NUL-separated, in find's order. */
  names: Buffer[];
  files: number;
  bytes: number;
  /** What tar will write for them: a 512-byte header each, file data padded to 512, the end. */
  estimate: number;
  leftOut: number;
}

const pad512 = (n: number) => Math.ceil(n / 512) * 512;

/** The source user's view of the folder: what it can read, links only within the app. */
async function list(user: string, dir: string, exclude: readonly string[]): Promise<Listing> {
  // At any depth: the app's web root may be a subfolder (public/wp-content/cache).
  const prune = exclude.flatMap((e, i) => [...(i ? ['-o'] : []), '-path', `*/${e}`]);
  const res = await runBytes(
    'runuser',
    [
      '-u',
      user,
      '--',
      'find',
      '.',
      '-mindepth',
      '1',
      ...(prune.length ? ['(', ...prune, ')', '-prune', '-o'] : []),
      '-readable',
      '-printf',
      '%y\\0%s\\0%p\\0%l\\0',
      '-o',
      '-printf',
      'u\\0\\0%p\\0\\0',
    ],
    { cwd: dir },
  );
  // find says "Permission denied" for folders it cannot enter: those are left out, nothing else.
  const errors = res.stderr.split('\n').filter((l) => l && !/Permission denied$/.test(l));
  if ((res.code !== 0 && res.code !== 1) || errors.length)
    throw new OpError('failed', `Listing ${dir} failed: ${errors[0] ?? `code ${res.code}`}`);
  const f = splitNul(res.stdout);
  const out: Listing = { names: [], files: 0, bytes: 0, estimate: 1024, leftOut: 0 };
  for (let i = 0; i + 3 < f.length; i += 4) {
    const [type, size, raw] = [f[i]!.toString(), Number(f[i + 1]!.toString()), f[i + 2]!];
    // Paths as bytes (latin1 keeps each byte): a name need not be UTF-8.
    const [name, target] = [raw.toString('latin1'), f[i + 3]!.toString('latin1')];
    let keep = type === 'd' || type === 'f';
    if (type === 'l') {
      // A link is kept only when it stays inside the app (a relative target that resolves there).
      const at = path.posix.resolve('/app', path.posix.dirname(name), target);
      keep = !target.startsWith('/') && (at === '/app' || at.startsWith('/app/'));
    }
    if (!keep) {
      out.leftOut++;
      continue;
    }
    out.names.push(raw, Buffer.from([0]));
    out.estimate += 512 + (name.length > 99 ? 1024 + pad512(name.length) : 0);
    if (type === 'f') {
      out.files++;
      out.bytes += size;
      out.estimate += pad512(size);
    }
  }
  return out;
}

/** The target folder holds nothing but empty folders (the app's creation may make its web root). */
async function isEmpty(user: string, dir: string): Promise<boolean> {
  const res = await run(
    'runuser',
    ['-u', user, '--', 'find', dir, '-mindepth', '1', '!', '-type', 'd', '-print', '-quit'],
    {
      timeoutMs: 120_000,
    },
  );
  if (res.code !== 0)
    throw new OpError('failed', `Checking ${dir} failed: ${lastLine(res.stderr)}`);
  return res.stdout === '';
}

/** The page a new app is made with (features/webapps placeholder), never a user's file. */
const PLACEHOLDER = /is ready for its files[:.]/;

/**
 * Removes the new app's placeholder pages (index.php or index.html saying it is ready for its
 * files) from the target, as its user, so the copy finds it empty; any other file stays and
 * makes the copy refuse.
 */
async function dropPlaceholders(user: string, dir: string): Promise<void> {
  const found = await run(
    'runuser',
    [
      '-u',
      user,
      '--',
      'find',
      dir,
      '-maxdepth',
      '3',
      '-type',
      'f',
      '(',
      '-name',
      'index.php',
      '-o',
      '-name',
      'index.html',
      ')',
      '-size',
      '-2k',
    ],
    { timeoutMs: 60_000 },
  );
  for (const file of found.stdout.split('\n').filter(Boolean)) {
    const text = await run('runuser', ['-u', user, '--', 'cat', '--', file]);
    if (text.code === 0 && PLACEHOLDER.test(text.stdout))
      await run('runuser', ['-u', user, '--', 'rm', '-f', '--', file]);
  }
}

export interface FilesArgs {
  from_user: string;
  from_dir: string;
  to_user: string;
  to_dir: string;
  exclude: readonly string[];
}

export async function cloneFiles(
  args: FilesArgs,
  ctx: OpContext,
): Promise<{ bytes: number; files: number; left_out: number }> {
  const from = await appFolder(args.from_user, args.from_dir, {
    user: 'from_user',
    dir: 'from_dir',
  });
  const to = await appFolder(args.to_user, args.to_dir, { user: 'to_user', dir: 'to_dir' });
  if (from.dir === to.dir) throw opFieldError('to_dir', 'The copy needs a folder of its own');
  await dropPlaceholders(args.to_user, to.dir);
  if (!(await isEmpty(args.to_user, to.dir)))
    throw opFieldError('to_dir', `${to.dir} must be empty (folders without files only)`);

  ctx.progress('Measuring the files to copy', 0);
  const listing = await list(args.from_user, from.dir, args.exclude);
  const total = Math.max(listing.estimate, 1);
  let shown = 0;
  const { from: packed, to: unpacked } = await pipeCounted(
    {
      file: 'runuser',
      args: [
        '-u',
        args.from_user,
        '--',
        'tar',
        '-C',
        from.dir,
        '--null',
        '--verbatim-files-from',
        '--no-recursion',
        '-T',
        '-',
        '-cf',
        '-',
      ],
      input: Buffer.concat(listing.names),
    },
    {
      file: 'runuser',
      args: [
        '-u',
        args.to_user,
        '--',
        'tar',
        '-C',
        to.dir,
        '-xf',
        '-',
        '--no-same-owner',
        '--same-permissions',
        '--no-overwrite-dir',
        '--delay-directory-restore',
      ],
    },
    (bytes) => {
      // Codes 0..9 while copying, never going back: 10 only once both sides finished well.
      shown = Math.max(shown, Math.min(9, Math.floor((10 * bytes) / total)));
      const mb = (n: number) => (n / 1e6).toFixed(1);
      ctx.progress(`Copying files: ${mb(Math.min(bytes, total))} of ${mb(total)} MB`, shown);
    },
  );
  if (packed.code !== 0)
    throw new OpError(
      'failed',
      `Reading the files failed: ${lastLine(packed.stderr) || `tar ${packed.code ?? packed.signal}`}`,
    );
  if (unpacked.code !== 0)
    throw new OpError(
      'failed',
      `Writing the copy failed: ${lastLine(unpacked.stderr) || `tar ${unpacked.code ?? unpacked.signal}`}`,
    );
  ctx.progress('Files copied', 10);
  return { bytes: listing.bytes, files: listing.files, left_out: listing.leftOut };
}
