/**
 * A Node.js app's code from an archive the user uploaded (issue 11): the panel hands it over in
 * pieces (one op message stays far below socket.io's limit), into a file of root's that the
 * user cannot touch; it is then checked as a release is (features/releases/agent.ts: its size
 * and hash, then its listing) and unpacked by the app's user, never by root.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { OpContext } from '../../agent/ops/types';
import { type Entry, listingProblem, parseTarListing, parseZipListing } from '../releases/api';
import { appDir } from '../webapps/api';
import { appUser, asUser } from '../installers/agentApi';
import { NODE_STEP_MS, npmInstall, said } from './agentUser';
import { CODE_DIR, MAX_ARCHIVE_BYTES } from './names';
import type { ops } from './resource';

/** Root's: traversable (the user reads its own archive through its group), never listable. */
const UPLOAD_DIR = process.env.STACKDECK_UPLOAD_DIR ?? '/var/cache/stackdeck/uploads';
const partOf = (app: string) => path.join(UPLOAD_DIR, `${app}.node-archive`);

type Args<N extends keyof typeof ops> = z.output<(typeof ops)[N]['args']>;

async function hashOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function listing(file: string, format: 'tgz' | 'zip'): Promise<Entry[]> {
  const res =
    format === 'zip'
      ? await run('unzip', ['-Z', file])
      : await run('tar', ['--numeric-owner', '-tvf', file]);
  if (res.code !== 0)
    throw opFieldError('archive', `Not a ${format === 'zip' ? '.zip' : '.tar.gz'} archive`);
  try {
    return format === 'zip' ? parseZipListing(res.stdout) : parseTarListing(res.stdout);
  } catch (e) {
    throw opFieldError('archive', e instanceof Error ? e.message : String(e));
  }
}

async function receive({ app, offset, data }: Args<'node.receive'>) {
  await fs.mkdir(UPLOAD_DIR, { recursive: true, mode: 0o711 });
  await fs.chmod(UPLOAD_DIR, 0o711);
  const file = partOf(app);
  const bytes = Buffer.from(data, 'base64');
  if (offset === 0) await fs.rm(file, { force: true });
  const had = (await fs.lstat(file).catch(() => null))?.size ?? 0;
  if (had !== offset)
    throw new OpError(
      'conflict',
      `The archive has ${had} bytes here, not ${offset}: send it again`,
    );
  if (offset + bytes.length > MAX_ARCHIVE_BYTES)
    throw opFieldError('archive', `The archive is larger than ${MAX_ARCHIVE_BYTES} bytes`);
  // O_NOFOLLOW: the folder is root's, still nothing here follows a link.
  const handle = await fs.open(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await handle.write(bytes);
  } finally {
    await handle.close();
  }
  return { bytes: offset + bytes.length };
}

async function unpack(args: Args<'node.unpack'>, ctx: OpContext) {
  const file = partOf(args.app);
  try {
    const user = await appUser(args.user);
    const dir = appDir(user.home, args.app);
    const there = await fs.lstat(dir).catch(() => null);
    if (!there?.isDirectory() || there.uid !== user.uid)
      throw new OpError('failed', `The app's folder ${dir} is missing or not ${user.name}'s`);
    const code = path.join(dir, CODE_DIR);
    if (await fs.lstat(code).catch(() => null))
      throw opFieldError('archive', `The app has code already (${code})`);
    const got = await fs.lstat(file).catch(() => null);
    if (!got?.isFile() || got.size !== args.bytes)
      throw opFieldError('archive', `The archive arrived incomplete: upload it again`);
    if ((await hashOf(file)) !== args.sha256)
      throw opFieldError('archive', `The archive arrived damaged (SHA-256): upload it again`);
    const entries = await listing(file, args.format);
    const problem = listingProblem(entries);
    if (problem) throw opFieldError('archive', `Refused: ${problem}`);
    // Readable by the user's group, still root's: the user can neither change nor swap it.
    await fs.chown(file, 0, user.gid);
    await fs.chmod(file, 0o440);

    const made = await asUser(user, 'mktemp', ['-d', '-p', dir, '.stackdeck-upload.XXXXXX']);
    const tmp = made.stdout.trim();
    if (made.code !== 0 || !tmp) throw new OpError('failed', `mktemp: ${said(made)}`);
    try {
      const res =
        args.format === 'zip'
          ? await asUser(user, 'unzip', ['-q', '-o', file, '-d', tmp], { timeoutMs: NODE_STEP_MS })
          : await asUser(
              user,
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
              { timeoutMs: NODE_STEP_MS },
            );
      if (res.code !== 0) throw opFieldError('archive', `Extracting failed: ${said(res)}`);
      // An archive of one folder (`app/server.js`, as GitHub makes them): that folder is the code.
      const top = await fs.readdir(tmp, { withFileTypes: true });
      const only = top.length === 1 && top[0]!.isDirectory() ? path.join(tmp, top[0]!.name) : tmp;
      const moved = await asUser(user, 'mv', ['-T', '--', only, code]);
      if (moved.code !== 0) throw new OpError('failed', `mv: ${said(moved)}`);
    } finally {
      await asUser(user, 'rm', ['-rf', '--', tmp]);
    }
    const npm = await npmInstall(user, code, (e, c) => ctx.progress(e, c));
    return { path: code, files: entries.filter((e) => e.type === '-').length, npm };
  } finally {
    await fs.rm(file, { force: true });
  }
}

export const nodeArchiveOps = { 'node.receive': receive, 'node.unpack': unpack };
