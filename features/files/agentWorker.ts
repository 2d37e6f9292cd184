import type * as NodeFs from 'node:fs';
import type { Stats } from 'node:fs';
import type * as NodePath from 'node:path';
import type { Refusal, WorkerActions, WorkerKit, WorkerRequest } from './agentWorkerKit';
import { listingActions } from './agentWorkerListing';
import { writeActions } from './agentWorkerWrites';

/**
 * The file manager's hands: a program the agent runs as the app's system user (`node -e`, its
 * source from `workerSource`, the request as JSON on standard input, never in argv or a shell),
 * so the kernel judges every open, rename and chmod with that user's rights. Inside it, every
 * path is also resolved and confined: the real path of the folder it acts in must be the app's
 * folder or under it, and the entry itself is taken with lstat/O_NOFOLLOW, never followed. A
 * link the user made to /etc/shadow is listed as a link and read as nothing.
 *
 * This core reads the request, builds the confined helpers (the kit) and hands the action to
 * the group that owns it: agentWorkerListing.ts (reads) or agentWorkerWrites.ts (changes). Each
 * function must stay self-contained (each is sent as its own text): no imports, no helpers
 * from outside its body, its modules and the groups as its arguments.
 */
function filesWorker(fs: typeof NodeFs, path: typeof NodePath, groups: WorkerActions[]): void {
  type Req = WorkerRequest;
  /** A refusal of ours (no class: its text would need a helper from outside this function). */
  const Refused = function (code: string, message: string, field?: string): Refusal {
    return Object.assign(new Error(message), { code, field, refused: true as const });
  } as unknown as new (code: string, message: string, field?: string) => Refusal;
  const out = (v: unknown) => process.stdout.write(JSON.stringify(v));
  const str = (v: unknown) => String(v);

  const chunks: Buffer[] = [];
  process.stdin.on('data', (c: Buffer) => chunks.push(c));
  process.stdin.on('end', () => {
    try {
      out({ ok: true, value: act(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Req) });
    } catch (e) {
      const err = e as Partial<Refusal> & Error;
      const known = err.refused === true;
      const message =
        err.code === 'EACCES' || err.code === 'EPERM'
          ? 'Permission denied (the app user may not do this)'
          : err.code === 'ENOENT'
            ? 'No such file or folder'
            : err.code === 'EEXIST'
              ? 'A file or folder of that name is there already'
              : err.code === 'ELOOP'
                ? 'That is a link: it is never followed here (open what it points to)'
                : err.message;
      const code = known
        ? err.code
        : err.code === 'ENOENT'
          ? 'not_found'
          : err.code === 'EEXIST'
            ? 'conflict'
            : 'refused';
      out({ ok: false, code, message, field: known ? err.field : undefined });
    }
  });

  function act(req: Req): unknown {
    const root = fs.realpathSync(req.root);
    const inside = (real: string) => real === root || real.startsWith(`${root}/`);
    /** The app-relative path's folder, resolved as this user and confined; the entry's name. */
    const place = (rel: string) => {
      const parts = rel.split('/').filter(Boolean);
      if (parts.includes('..')) throw new Refused('invalid', 'No .. in paths', 'path');
      const name = parts.pop() ?? '';
      const dir = fs.realpathSync(path.join(root, ...parts));
      if (!inside(dir)) throw new Refused('refused', `${rel} leads outside the app`, 'path');
      return { dir, name, full: name ? path.join(dir, name) : dir };
    };
    /** A folder the user names: its real path must stay inside (a link to /etc is refused). */
    const folder = (rel: string) => {
      const real = fs.realpathSync(path.join(root, rel));
      if (!inside(real)) throw new Refused('refused', `${rel} leads outside the app`, 'path');
      if (!fs.statSync(real).isDirectory())
        throw new Refused('invalid', `${rel} is not a folder`, 'path');
      return real;
    };
    const relOf = (full: string) => `/${path.relative(root, full)}`.replace(/\/$/, '') || '/';
    const typeOf = (s: Stats) =>
      s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    const entry = (full: string) => {
      const s = fs.lstatSync(full);
      const rel = relOf(full);
      return {
        path: rel,
        dir_path: relOf(path.dirname(full)),
        name: path.basename(full),
        type: typeOf(s),
        size: s.size,
        mode: (s.mode & 0o7777).toString(8).padStart(4, '0'),
        mtime: Math.trunc(s.mtimeMs),
        target: s.isSymbolicLink() ? fs.readlinkSync(full) : null,
        etag: `${Math.trunc(s.mtimeMs)}-${s.size}`,
      };
    };
    // A clash answers 409 (never at a field: the platform makes field errors 400s).
    const mustNotExist = (full: string) => {
      if (fs.existsSync(full) || isLink(full))
        throw new Refused('conflict', `${path.basename(full)} is there already`);
    };
    const isLink = (full: string) => {
      try {
        return fs.lstatSync(full).isSymbolicLink();
      } catch {
        return false;
      }
    };

    const kit: WorkerKit = {
      fs,
      path,
      root,
      Refused,
      str,
      place,
      folder,
      relOf,
      entry,
      mustNotExist,
      isLink,
    };
    for (const group of groups) {
      const actions = group(kit);
      // Own names only: an action called "toString" is unknown, not Object's.
      if (Object.prototype.hasOwnProperty.call(actions, req.action))
        return actions[req.action]!(req);
    }
    throw new Refused('invalid', `Unknown action ${req.action}`);
  }
}
/**
 * The worker's program text for `node -e`: the core and its action groups, each as its own
 * text. Its modules are passed in from the program's own `require` (text here, so no bundler
 * renames it: the agent is an ES module bundle).
 */
export const workerSource = `(${filesWorker.toString()})(require('node:fs'), require('node:path'), [${listingActions.toString()}, ${writeActions.toString()}])`;
