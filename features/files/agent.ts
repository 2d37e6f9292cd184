import fs from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import type { OpErrorCode } from '../../resources/agent/protocol';
import { appUser, asUser } from '../installers/agentApi';
import { listingProblem, parseTarListing, parseZipListing } from '../releases/api';
import { appDir } from '../webapps/api';
import { workerSource } from './agentWorker';
import {
  ARCHIVE_LIMITS,
  PIECE_BYTES,
  archiveFormatOfName,
  dirOf,
  extractFolderOf,
  joinPath,
} from './names';
import { ops } from './resource';

type Args<N extends keyof typeof ops> = z.output<(typeof ops)[N]['args']>;
interface Where {
  user: PasswdEntry;
  root: string;
}

/** The app's user and folder: the folder must be there and that user's. */
async function where(args: { user: string; app: string }): Promise<Where> {
  const user = await appUser(args.user);
  const root = appDir(user.home, args.app);
  const there = await fs.lstat(root).catch(() => null);
  if (!there?.isDirectory() || there.uid !== user.uid)
    throw new OpError('not_found', `The app's folder ${root} is missing or not ${user.name}'s`);
  return { user, root };
}

const said = (res: { stdout: string; stderr: string }) =>
  `${res.stderr}${res.stdout}`.trim().split('\n').slice(-3).join(' ');

/** One request to the worker, run as the app's user (agentWorker.ts); its answer or refusal. */
async function work<T>(w: Where, request: Record<string, unknown>): Promise<T> {
  const res = await asUser(w.user, process.execPath, ['-e', workerSource], {
    input: JSON.stringify({ root: w.root, ...request }),
    cwd: '/',
  });
  let answer: { ok: boolean; value?: T; code?: OpErrorCode; message?: string; field?: string };
  try {
    answer = JSON.parse(res.stdout) as typeof answer;
  } catch {
    throw new OpError('failed', `The file worker failed: ${said(res)}`);
  }
  if (answer.ok) return answer.value as T;
  throw new OpError(answer.code ?? 'failed', answer.message ?? 'Refused', answer.field);
}

/** A program run as the user in a confined folder; its failure as the op's error. */
async function program(w: Where, cwd: string, file: string, argv: string[], field: string) {
  const res = await asUser(w.user, file, argv, { cwd });
  if (res.code !== 0) throw opFieldError(field, `${file}: ${said(res)}`);
  return res;
}

interface Placed {
  dir: string;
  name: string;
  full: string;
  exists: boolean;
}

/** zip or tar.gz of entries of one folder, made by the user (links stored as links). */
async function compress(w: Where, args: Args<'files.process'>) {
  if (!args.name || archiveFormatOfName(args.name) !== args.format)
    throw opFieldError('name', `A ${args.format} archive's name ends in .${args.format}`);
  const folder = dirOf(args.paths[0]!);
  if (args.paths.some((p) => dirOf(p) !== folder))
    throw opFieldError('paths', 'Compress entries of one folder at a time');
  const target = await work<Placed>(w, { action: 'place', path: joinPath(folder, args.name) });
  if (target.exists) throw new OpError('conflict', `${args.name} is there already`, 'name');
  // ./name: no entry or archive name is ever taken for an option.
  const names = args.paths.map((p) => `./${path.basename(p)}`);
  if (args.format === 'zip')
    await program(w, target.dir, 'zip', ['-q', '-r', '-y', `./${args.name}`, ...names], 'paths');
  else await program(w, target.dir, 'tar', ['-czf', `./${args.name}`, '--', ...names], 'paths');
  return { done: [joinPath(folder, args.name)] };
}

/**
 * Extracts an archive into a new folder beside it (its name without the extension), after its
 * listing passed the checks a release's does (no absolute or .. paths, links, devices, setuid
 * files; within ARCHIVE_LIMITS). Listed and extracted by the user, into a folder that is new.
 */
async function extract(w: Where, args: Args<'files.process'>) {
  const archive = await work<Placed>(w, { action: 'place', path: args.paths[0]! });
  const format = archiveFormatOfName(archive.name);
  if (!format) throw opFieldError('paths', 'Only .zip, .tar.gz and .tgz archives are extracted');
  const file = `./${archive.name}`;
  const list =
    format === 'zip'
      ? await asUser(w.user, 'unzip', ['-Z', file], { cwd: archive.dir })
      : await asUser(w.user, 'tar', ['--numeric-owner', '-tvzf', file], { cwd: archive.dir });
  if (list.code !== 0) throw opFieldError('paths', `Not a readable ${format} archive`);
  let problem: string | null;
  try {
    const entries = format === 'zip' ? parseZipListing(list.stdout) : parseTarListing(list.stdout);
    problem = listingProblem(entries, ARCHIVE_LIMITS);
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
  if (problem) throw opFieldError('paths', `Refused: ${problem}`);
  const into = joinPath(dirOf(args.paths[0]!), extractFolderOf(archive.name));
  await work(w, { action: 'mkdir', path: into });
  const dest = `./${path.basename(into)}`;
  if (format === 'zip')
    await program(w, archive.dir, 'unzip', ['-q', '-n', file, '-d', dest], 'paths');
  else
    await program(
      w,
      archive.dir,
      'tar',
      ['-xzf', file, '-C', dest, '--no-same-owner', '--no-same-permissions', '--no-overwrite-dir'],
      'paths',
    );
  return { done: [into] };
}

/** Everything as the app's user, inside its folder (see agentWorker.ts). */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'files.list'(args) {
      const w = await where(args);
      return work(w, { action: 'list', path: args.path, page: args.page, per_page: args.per_page });
    },
    async 'files.read'(args) {
      const w = await where(args);
      return work(w, { action: 'read', path: args.path, offset: args.offset, piece: PIECE_BYTES });
    },
    async 'files.write'(args) {
      const w = await where(args);
      return work(w, { action: 'write', ...args, user: undefined, app: undefined });
    },
    async 'files.mkdir'(args) {
      const w = await where(args);
      return work(w, { action: 'mkdir', path: args.path });
    },
    async 'files.delete'(args) {
      const w = await where(args);
      // One folder per deletion time, so two files of the same name are both kept.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      return work(w, {
        action: 'delete',
        path: args.path,
        trash: args.trash,
        home: w.user.home,
        app: args.app,
        stamp,
      });
    },
    async 'files.process'(args) {
      const w = await where(args);
      switch (args.action) {
        case 'compress':
          return compress(w, args);
        case 'extract':
          return extract(w, args);
        case 'copy':
        case 'move':
          if (!args.destination) throw opFieldError('destination', 'Choose the folder');
          return work(w, { action: args.action, paths: args.paths, destination: args.destination });
        case 'rename':
          if (!args.name) throw opFieldError('name', 'The new name is needed');
          return work(w, { action: 'rename', paths: args.paths.slice(0, 1), name: args.name });
        case 'permissions':
          if (!args.mode) throw opFieldError('mode', 'The permissions are needed');
          return work(w, { action: 'permissions', paths: args.paths, mode: args.mode });
      }
    },
    async 'files.dirs'(args) {
      return work(await where(args), { action: 'dirs' });
    },
  },
  locks: {
    // Writes of one app one at a time: an upload's pieces and a save never interleave.
    'files.write': (a) => [`files:${a.app}`],
    'files.mkdir': (a) => [`files:${a.app}`],
    'files.delete': (a) => [`files:${a.app}`],
    'files.process': (a) => [`files:${a.app}`],
  },
});
