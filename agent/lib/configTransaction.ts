import fs from 'node:fs/promises';
import { run } from './exec';
import { writeFileAtomic } from './files';
import { OpError } from './opError';

/** A program to run (argv, never a shell) or a step of the op's own; either fails the change. */
export type ConfigStep = readonly string[] | (() => Promise<void>);

export interface ConfigFile {
  path: string;
  /** The new content; null removes the file (a pool of another PHP version, a vhost let go). */
  content: string | null;
  /** For a new file (an existing one keeps its mode and owner). */
  mode?: number;
  owner?: { uid: number; gid: number };
}

export interface ConfigTransaction {
  /** The program whose configuration this is, for the messages: sshd, nginx, supervisor. */
  program: string;
  files: ConfigFile[];
  /** The program's own check of the written files: `['sshd', '-t', '-f', path]`, `nginx -t`. */
  check?: ConfigStep;
  /** Makes the program take the new configuration: `['nginx', '-s', 'reload']`. */
  reload?: ConfigStep;
  /** After the reload: the program really runs as asked (listens on its port...). */
  verify?: () => Promise<void>;
}

interface Saved {
  path: string;
  /** The content before; null: the file did not exist. */
  before: Buffer | null;
  mode: number;
  owner?: { uid: number; gid: number };
}

/** The last lines of what a failed program said, for the user. */
function detailOf(res: { code: number; stdout: string; stderr: string }): string {
  const text = (res.stderr || res.stdout).trim().split('\n').filter(Boolean).slice(-3).join(' ');
  return text || `exit code ${res.code}`;
}

async function runStep(
  step: ConfigStep,
  code: 'check_failed' | 'reload_failed',
  what: string,
): Promise<void> {
  if (typeof step === 'function') {
    try {
      await step();
    } catch (error) {
      if (error instanceof OpError) throw error;
      throw new OpError(code, error instanceof Error ? error.message : String(error));
    }
    return;
  }
  const [file, ...args] = step;
  if (!file) return;
  const res = await run(file, args).catch((error: Error) => ({
    code: -1,
    stdout: '',
    stderr: error.message,
  }));
  if (res.code !== 0) throw new OpError(code, `${what}: ${detailOf(res)}`);
}

async function snapshot(file: ConfigFile): Promise<Saved> {
  const stat = await fs.lstat(file.path).catch(() => null);
  if (stat?.isSymbolicLink())
    throw new OpError('refused', `${file.path} is a symbolic link; refused`);
  if (stat && !stat.isFile()) throw new OpError('refused', `${file.path} is not a regular file`);
  if (!stat) return { path: file.path, before: null, mode: file.mode ?? 0o644, owner: file.owner };
  return {
    path: file.path,
    before: await fs.readFile(file.path),
    mode: stat.mode & 0o7777,
    owner: { uid: stat.uid, gid: stat.gid },
  };
}

async function restore(saved: Saved[]): Promise<void> {
  for (const s of saved) {
    if (s.before === null) await fs.rm(s.path, { force: true });
    else await writeFileAtomic(s.path, s.before, s.mode, s.owner);
  }
}

/**
 * Changes a program's configuration as one transaction: every file is written atomically (a
 * temp file beside it, fsync, rename; mode and owner kept), the program's own check runs, then
 * the reload and the verification. Should any step fail, every file gets its old content back
 * (a file that was new is removed), the program is reloaded again if it had been, and the
 * failure comes out as an OpError: `check_failed`, `reload_failed`, or the step's own.
 * Unchanged files are not rewritten. The caller holds the lock of the files (agent/ops/index.ts).
 */
export async function applyConfig(tx: ConfigTransaction): Promise<void> {
  const saved: Saved[] = [];
  for (const file of tx.files) saved.push(await snapshot(file));
  let reloaded = false;
  try {
    for (const [i, file] of tx.files.entries()) {
      const s = saved[i]!;
      if (file.content === null) {
        if (s.before !== null) await fs.rm(file.path, { force: true });
        continue;
      }
      if (s.before?.equals(Buffer.from(file.content))) continue;
      await writeFileAtomic(file.path, file.content, s.mode, s.owner);
    }
    if (tx.check) {
      await runStep(tx.check, 'check_failed', `${tx.program} refused the new configuration`);
    }
    if (tx.reload) {
      reloaded = true;
      await runStep(tx.reload, 'reload_failed', `${tx.program} could not reload`);
    }
    await tx.verify?.();
  } catch (error) {
    try {
      await restore(saved);
      if (reloaded && tx.reload) {
        await runStep(tx.reload, 'reload_failed', `${tx.program} could not reload`).catch(
          () => undefined,
        );
      }
    } catch (undo) {
      const why = undo instanceof Error ? undo.message : String(undo);
      const message = error instanceof Error ? error.message : String(error);
      throw new OpError('failed', `${message}; putting the old configuration back failed: ${why}`);
    }
    throw error;
  }
}
