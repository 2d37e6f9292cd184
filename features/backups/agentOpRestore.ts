/**
 * The restore ops, never over the live app or database: a snapshot goes into something new
 * (checked against the snapshot), then swapped in; what it replaced is kept under a
 * `.before-restore-<stamp>` (folder) or `_before_<stamp>` (database) name until the user confirms
 * (`backups.drop-previous`). Everything stays inside the system user's home, owned by that user:
 * restic (root) restores into a folder only root enters (`STAGING`), and every step that writes
 * into the home runs as that user (`runuser`).
 */
import { chmod, lstat, mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import type { OpContext } from '../../agent/ops/types';
import { sql } from '../databases/agentApi';
import { DB_NAME, literal } from '../databases/api';
import { restic } from './agentRestic';
import { classifyExit } from './agentResticErrors';
import { printable } from './agentResticInput';
import { inLane } from './agentResticLane';
import { retryIfLocked } from './agentRepoMaintenance';
import { folderSize, restoreDatabase, restoreFiles } from './agentRestore';
import { appFolder, failure, isFailed, stampNow, systemUser } from './agentOpCommon';
import type { ops } from './resource';

type Args<N extends keyof typeof ops> = z.output<(typeof ops)[N]['args']>;

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/**
 * Where restic (root) restores before anything reaches a home: a folder only root may enter.
 * restic writes each file by its path under the target, so a target inside a home, which the
 * user may rename and replace with a link at any moment, could lead root's writes anywhere.
 * Staged here, checked, handed to the user (chown, no link followed), the tree is then moved
 * into the home by the user (`runuser`), who can only lead it where they may write anyway.
 */
export const STAGING = '/var/lib/stackdeck-restore';

/** A command as the app's system user. */
async function asUser(user: PasswdEntry, argv: readonly string[]): Promise<void> {
  const res = await run('runuser', ['-u', user.name, '--', ...argv]);
  if (res.code !== 0)
    throw new OpError('failed', `${argv[0]} failed: ${res.stderr.trim() || `exit ${res.code}`}`);
}

/** `mv -T` as the user: a rename on one file system, a copy (as the user) across two. */
const moveAs = (user: PasswdEntry, from: string, to: string) =>
  asUser(user, ['mv', '-T', '--', from, to]);
const removeAs = (user: PasswdEntry, p: string) =>
  asUser(user, ['rm', '-rf', '--', p]).catch(() => undefined);

/**
 * A fresh staging folder (root's, 0700) for one restore, and its removal after: as the user
 * once it was handed over, else by root (nothing of the user's is in it then).
 */
async function staged<T>(
  user: PasswdEntry,
  work: (stage: string, handOver: () => Promise<void>) => Promise<T>,
): Promise<T> {
  await mkdir(STAGING, { recursive: true, mode: 0o711 });
  await chmod(STAGING, 0o711);
  const stage = await mkdtemp(path.join(STAGING, 'r-'));
  let handed = false;
  // The whole stage becomes the user's (links themselves, never what they point to), so the
  // user can move the tree out of it (0711 above lets them through) and remove what is left.
  const handOver = async () => {
    const res = await run('chown', ['-R', '-P', '-h', `${user.uid}:${user.gid}`, '--', stage]);
    if (res.code !== 0) throw new OpError('failed', `chown failed: ${res.stderr.trim()}`);
    handed = true;
  };
  try {
    return await work(stage, handOver);
  } finally {
    // Once handed over, only the user removes it (root never walks a tree the user can change).
    if (handed) await removeAs(user, stage);
    else await rm(stage, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The app's folder replaced by the snapshot's tree, the previous one kept beside it. */
async function replaceApp(a: Args<'backups.restore-files'>, user: PasswdEntry, ctx: OpContext) {
  const dir = await appFolder(user, a.app);
  const stamp = stampNow();
  const fresh = `${dir}.restoring-${stamp}`;
  const previous = `${dir}.before-restore-${stamp}`;
  if ((await exists(previous)) || (await exists(fresh)))
    throw new OpError('conflict', `${previous} exists already: try again in a second`);
  return staged(user, async (stage, handOver) => {
    ctx.progress('Restoring the files into a new folder', 1);
    const tree = path.join(stage, 'tree');
    const restored = await restoreFiles(
      a.target,
      { snapshot: a.snapshot, target: tree },
      { allowedRoots: [stage] },
    );
    if (isFailed(restored)) {
      restored.error.message = restored.error.message.replace(/ It was left at .*$/, '');
      throw failure(restored, 'The restore failed, the app was left as it was');
    }
    ctx.progress('Checked against the backup; swapping it in', 8);
    // The top folder as the app's was (root's chmod, inside the stage only root enters yet).
    await chmod(tree, (await stat(dir)).mode & 0o7777);
    await handOver();
    await moveAs(user, tree, fresh);
    await moveAs(user, dir, previous);
    try {
      await moveAs(user, fresh, dir);
    } catch (error) {
      await moveAs(user, previous, dir);
      await removeAs(user, fresh);
      throw error;
    }
    ctx.progress('Files restored', 10);
    return { files: restored.files, bytes: restored.bytes, previous };
  });
}

/** A path inside the app as given: relative, no `.` or `..` part, one line. */
export function relativePath(p: string | null): string {
  const rel = (p ?? '').replace(/\/+$/, '');
  const parts = rel.split('/');
  if (!rel || !printable(rel) || parts.some((s) => s === '' || s === '.' || s === '..'))
    throw opFieldError('path', 'A path inside the app, without .. (like wp-content/uploads)');
  return rel;
}

/** restic's include pattern of exactly that path (its glob characters escaped). */
export const includePattern = (rel: string) => `/${rel.replace(/[*?[\]\\]/g, '\\$&')}`;

/** The parents of `rel` inside dir, created when missing, as the user. */
async function parentsOf(dir: string, rel: string, user: PasswdEntry): Promise<void> {
  const parent = path.dirname(rel);
  if (parent === '.') return;
  const st = await lstat(path.join(dir, parent)).catch(() => null);
  if (st && (!st.isDirectory() || st.isSymbolicLink()))
    throw opFieldError('path', `${parent} in the app is not a folder`);
  if (!st) await asUser(user, ['mkdir', '-p', '--', path.join(dir, parent)]);
}

/** One file or folder of the snapshot back into place; the one it replaces kept beside it. */
async function restorePath(a: Args<'backups.restore-files'>, user: PasswdEntry, ctx: OpContext) {
  const rel = relativePath(a.path);
  const dir = await appFolder(user, a.app);
  const stamp = stampNow();
  return staged(user, async (stage, handOver) => {
    ctx.progress(`Restoring ${rel}`, 1);
    const ended = await retryIfLocked(a.target, async () => {
      const end = await restic(a.target, 'restore', [
        '--target',
        stage,
        '--include',
        includePattern(rel),
        '--',
        a.snapshot,
      ]);
      const problem = classifyExit(end);
      return problem ? { status: 'failed' as const, error: problem } : { status: 'ok' as const };
    });
    if (isFailed(ended)) throw failure(ended, `${rel} could not be restored`);
    const got = path.join(stage, rel);
    // restic 0.14: an include that matches nothing restores nothing, and exits 0.
    const st = await lstat(got).catch(() => null);
    if (!st) throw new OpError('not_found', `${rel} is not in this backup`);
    const size = st.isDirectory()
      ? await folderSize(got)
      : { files: 1, bytes: st.isFile() ? st.size : 0 };
    await handOver();
    ctx.progress(`Putting ${rel} back into place`, 8);
    await parentsOf(dir, rel, user);
    const place = path.join(dir, rel);
    const kept = (await exists(place)) ? `${place}.before-restore-${stamp}` : null;
    if (kept && (await exists(kept)))
      throw new OpError('conflict', `${kept} exists already: try again in a second`);
    if (kept) await moveAs(user, place, kept);
    try {
      await moveAs(user, got, place);
    } catch (error) {
      if (kept) await moveAs(user, kept, place);
      throw error;
    }
    ctx.progress(`${rel} restored`, 10);
    return { ...size, previous: kept };
  });
}

export async function restoreFilesOp(a: Args<'backups.restore-files'>, ctx: OpContext) {
  const user = await systemUser(a.sys_user);
  return inLane(a.target, () =>
    a.mode === 'replace' ? replaceApp(a, user, ctx) : restorePath(a, user, ctx),
  );
}

/** An identifier, backticks doubled. */
const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;
/** `name` cut so that name + suffix fits MariaDB's 64 characters. */
const fit = (name: string, suffix: string) => `${name.slice(0, 64 - suffix.length)}${suffix}`;

async function baseTables(db: string): Promise<string[]> {
  const rows = await sql(
    `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${literal(db, DB_NAME)} AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME;`,
  );
  return rows.map((r) => r[0]!);
}

async function schemaExists(db: string): Promise<boolean> {
  const rows = await sql(
    `SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${literal(db, DB_NAME)};`,
  );
  return rows.length > 0;
}

/**
 * The snapshot's dump into a new database (the lib checks the import completed), then every
 * table swapped in by one `RENAME TABLE` (atomic): the live tables, also those the backup lacks,
 * go to `<database>_before_<stamp>`. Tables only: views and routines stay as the live database
 * has them (a view names its tables, so it reads the restored ones).
 */
export async function restoreDatabaseOp(a: Args<'backups.restore-database'>, ctx: OpContext) {
  if (!(await schemaExists(a.database)))
    throw opFieldError('database', `The database ${a.database} does not exist on the server`);
  const stamp = stampNow();
  const fresh = fit(a.database, `_r${stamp}`);
  const before = fit(a.database, `_before_${stamp}`);
  if (await schemaExists(before))
    throw new OpError('conflict', `${before} exists already: try again in a second`);
  ctx.progress('Loading the backup into a new database', 1);
  const restored = await restoreDatabase(a.target, {
    snapshot: a.snapshot,
    database: a.source,
    into: fresh,
  });
  if (isFailed(restored))
    throw failure(restored, `The restore failed, ${a.database} was left as it was`);
  let incoming: string[] = [];
  try {
    incoming = await baseTables(fresh);
    const live = await baseTables(a.database);
    // RENAME TABLE refuses to move a table with triggers to another database.
    const [[triggers]] = (await sql(
      `SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA IN (${literal(fresh, DB_NAME)}, ${literal(a.database, DB_NAME)});`,
    )) as [[string]];
    if (Number(triggers) > 0)
      throw new OpError(
        'refused',
        `${a.database} or its backup has triggers, which cannot be swapped table by table; restore it into a new database instead`,
      );
    ctx.progress(`Swapping ${incoming.length} tables in`, 8);
    const [[charset, collation]] = (await sql(
      `SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${literal(a.database, DB_NAME)};`,
    )) as [[string, string]];
    await sql(
      `CREATE DATABASE ${q(before)} CHARACTER SET ${literal(charset, /^\w+$/)} COLLATE ${literal(collation, /^\w+$/)};`,
    );
    const moves = [
      ...live.map((t) => `${q(a.database)}.${q(t)} TO ${q(before)}.${q(t)}`),
      ...incoming.map((t) => `${q(fresh)}.${q(t)} TO ${q(a.database)}.${q(t)}`),
    ];
    try {
      if (moves.length) await sql(`RENAME TABLE ${moves.join(', ')};`);
    } catch (error) {
      await sql(`DROP DATABASE IF EXISTS ${q(before)};`);
      throw error;
    }
  } finally {
    // Empty now (or a failed restore's): never a live table in it.
    await sql(`DROP DATABASE IF EXISTS ${q(fresh)};`);
  }
  ctx.progress('Database restored', 10);
  return { tables: incoming.length, previous: before };
}

/** A kept tree's name: `<app>.before-restore-<stamp>` or `<path>.before-restore-<stamp>`. */
const KEPT_FOLDER = /\.before-restore-\d{14}$/;
const KEPT_DATABASE = /_before_\d{14}$/;

export async function dropPreviousOp(a: Args<'backups.drop-previous'>) {
  if (!!a.folder === !!a.database)
    throw opFieldError('folder', 'Name either a kept folder or a kept database');
  if (a.database) {
    if (!KEPT_DATABASE.test(a.database))
      throw opFieldError('database', `${a.database} is not a database a restore kept`);
    if (!(await schemaExists(a.database))) return { removed: false };
    await sql(`DROP DATABASE ${q(a.database)};`);
    return { removed: true };
  }
  if (!a.sys_user) throw opFieldError('sys_user', 'The system user whose folder it is');
  const user = await systemUser(a.sys_user);
  const folder = a.folder!;
  const apps = path.join(user.home, 'apps');
  if (
    !path.isAbsolute(folder) ||
    path.resolve(folder) !== folder ||
    !printable(folder) ||
    !KEPT_FOLDER.test(folder) ||
    !folder.startsWith(`${apps}/`)
  )
    throw opFieldError('folder', `${folder} is not a folder a restore kept in ${apps}`);
  const st = await lstat(folder).catch(() => null);
  if (!st) return { removed: false };
  // No link on the way: the kept thing's parent, by its real path, is inside the apps folder.
  const parent = await realpath(path.dirname(folder));
  const realApps = await realpath(apps);
  if (parent !== realApps && !parent.startsWith(`${realApps}/`))
    throw opFieldError('folder', `${folder} is outside ${apps}`);
  // Removed as the user: a link swapped in on the way leads only where the user may delete.
  await asUser(user, ['rm', '-rf', '--', path.join(parent, path.basename(folder))]);
  return { removed: true };
}
