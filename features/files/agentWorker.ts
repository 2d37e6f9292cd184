import type * as NodeFs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import type * as NodePath from 'node:path';

/**
 * The file manager's hands: a program the agent runs as the app's system user (`node -e`, its
 * source from `workerSource`, the request as JSON on standard input, never in argv or a shell),
 * so the kernel judges every open, rename and chmod with that user's rights. Inside it, every
 * path is also resolved and confined: the real path of the folder it acts in must be the app's
 * folder or under it, and the entry itself is taken with lstat/O_NOFOLLOW, never followed. A
 * link the user made to /etc/shadow is listed as a link and read as nothing.
 *
 * The function must stay self-contained (it is sent as its own text): no imports, no helpers
 * from outside its body, its modules as its arguments.
 */
function filesWorker(fs: typeof NodeFs, path: typeof NodePath): void {
  type Req = Record<string, unknown> & { action: string; root: string };
  type Refusal = Error & { code: string; field?: string; refused: true };
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

    switch (req.action) {
      case 'list': {
        const dir = folder(str(req.path));
        // Names and kinds only (readdir's d_type, no stat), streamed; sorted; then only the
        // page's entries are stat'ed.
        const dirs: string[] = [];
        const others: string[] = [];
        const handle = fs.opendirSync(dir, { bufferSize: 1024 });
        for (let d = handle.readSync(); d; d = handle.readSync())
          (d.isDirectory() ? dirs : others).push(d.name);
        handle.closeSync();
        const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        dirs.sort(byName);
        others.sort(byName);
        const all = dirs.concat(others);
        const per = Number(req.per_page);
        const page = Number(req.page);
        const names = all.slice((page - 1) * per, page * per);
        const data = [];
        for (const name of names) {
          try {
            const e = entry(path.join(dir, name));
            data.push({ ...e, etag: undefined });
          } catch {
            // Gone between the read and the stat: the page simply holds one fewer.
          }
        }
        return { path: relOf(dir), data, total: all.length, page, per_page: per };
      }
      case 'read': {
        const { full } = place(str(req.path));
        const fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
        try {
          const s = fs.fstatSync(fd);
          if (!s.isFile()) throw new Refused('invalid', `${str(req.path)} is not a file`, 'path');
          const offset = Number(req.offset);
          const buf = Buffer.alloc(Math.max(0, Math.min(Number(req.piece), s.size - offset)));
          const got = buf.length ? fs.readSync(fd, buf, 0, buf.length, offset) : 0;
          const bytes = buf.subarray(0, got);
          return {
            path: relOf(full),
            dir_path: relOf(path.dirname(full)),
            name: path.basename(full),
            file_content: bytes.toString('base64'),
            size: s.size,
            mtime: Math.trunc(s.mtimeMs),
            etag: `${Math.trunc(s.mtimeMs)}-${s.size}`,
            binary: offset === 0 && bytes.subarray(0, 8000).includes(0),
            eof: offset + got >= s.size,
          };
        } finally {
          fs.closeSync(fd);
        }
      }
      case 'write': {
        const { dir, name, full } = place(str(req.path));
        const data = Buffer.from(str(req.data), 'base64');
        const C = fs.constants;
        if (req.how === 'new') {
          mustNotExist(full);
          const fd = fs.openSync(full, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o644);
          fs.writeSync(fd, data);
          fs.closeSync(fd);
        } else if (req.how === 'append') {
          const fd = fs.openSync(full, C.O_WRONLY | C.O_APPEND | C.O_NOFOLLOW);
          try {
            const s = fs.fstatSync(fd);
            if (!s.isFile() || s.size !== Number(req.offset))
              throw new Refused('conflict', `The upload of ${name} was interrupted: send it again`);
            fs.writeSync(fd, data);
          } finally {
            fs.closeSync(fd);
          }
        } else {
          const now = fs.lstatSync(full);
          if (!now.isFile()) throw new Refused('invalid', `${name} is not a file`, 'name');
          if (`${Math.trunc(now.mtimeMs)}-${now.size}` !== req.etag)
            throw new Refused(
              'conflict',
              `${name} changed on the server since it was opened: reload it before saving`,
            );
          // Written beside it, then renamed over it: a reader sees the old or the new file.
          const tmp = path.join(dir, `.${name}.stackdeck-${process.pid}`);
          const fd = fs.openSync(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
          try {
            fs.writeSync(fd, data);
            fs.fchmodSync(fd, now.mode & 0o777);
            fs.closeSync(fd);
            fs.renameSync(tmp, full);
          } catch (e) {
            fs.rmSync(tmp, { force: true });
            throw e;
          }
        }
        return entry(full);
      }
      case 'mkdir': {
        const { full } = place(str(req.path));
        mustNotExist(full);
        fs.mkdirSync(full, { mode: 0o755 });
        return { ...entry(full), etag: undefined };
      }
      case 'delete': {
        const { full } = place(str(req.path));
        if (full === root) throw new Refused('invalid', "Not the app's folder itself", 'path');
        fs.lstatSync(full);
        if (!req.trash) {
          fs.rmSync(full, { recursive: true, force: false });
          return { path: relOf(full), trash: null };
        }
        // ~/.trash/<time>/<app>/<path>: the user's own folder, outside the web root.
        const home = fs.realpathSync(str(req.home));
        const bin = path.join(
          home,
          '.trash',
          str(req.stamp),
          str(req.app),
          path.dirname(relOf(full)),
        );
        fs.mkdirSync(bin, { recursive: true, mode: 0o700 });
        if (!fs.realpathSync(bin).startsWith(`${home}/.trash/`))
          throw new Refused('refused', 'The trash folder leads elsewhere');
        const to = path.join(bin, path.basename(full));
        fs.renameSync(full, to);
        return { path: relOf(full), trash: to };
      }
      case 'copy':
      case 'move': {
        const dest = folder(str(req.destination));
        const done = [];
        for (const rel of req.paths as string[]) {
          const { full, name } = place(rel);
          if (full === root) throw new Refused('invalid', "Not the app's folder itself", 'paths');
          fs.lstatSync(full);
          const to = path.join(dest, name);
          if (to === full || to.startsWith(`${full}/`))
            throw new Refused('invalid', `${name} cannot go into itself`, 'destination');
          mustNotExist(to);
          if (req.action === 'move') fs.renameSync(full, to);
          else
            fs.cpSync(full, to, {
              recursive: true,
              errorOnExist: true,
              force: false,
              dereference: false,
              verbatimSymlinks: true,
              preserveTimestamps: true,
            });
          done.push(relOf(to));
        }
        return { done };
      }
      case 'rename': {
        const { full, dir } = place((req.paths as string[])[0]!);
        if (full === root) throw new Refused('invalid', "Not the app's folder itself", 'paths');
        fs.lstatSync(full);
        const to = path.join(dir, str(req.name));
        mustNotExist(to);
        fs.renameSync(full, to);
        return { done: [relOf(to)] };
      }
      case 'permissions': {
        const done = [];
        for (const rel of req.paths as string[]) {
          const { full } = place(rel);
          // chmod follows links: a link's target is never changed through it.
          if (fs.lstatSync(full).isSymbolicLink())
            throw new Refused('invalid', `${rel} is a link: change its target instead`, 'paths');
          fs.chmodSync(full, parseInt(str(req.mode), 8));
          done.push(relOf(full));
        }
        return { done };
      }
      case 'place': {
        // For the agent's archive steps: the confined real folder and entry, checked here.
        const { dir, name, full } = place(str(req.path));
        return { dir, name, full, exists: fs.existsSync(full) || isLink(full) };
      }
      case 'dirs': {
        const found: string[] = [];
        const walk = (dir: string, depth: number) => {
          if (depth > 3 || found.length >= 1000) return;
          let names: Dirent[] = [];
          try {
            names = fs.readdirSync(dir, { withFileTypes: true });
          } catch {
            return; // unreadable to the user: not offered
          }
          for (const d of names
            .filter((n) => n.isDirectory())
            .sort((a, b) => (a.name < b.name ? -1 : 1))) {
            if (found.length >= 1000) return;
            found.push(relOf(path.join(dir, d.name)));
            walk(path.join(dir, d.name), depth + 1);
          }
        };
        walk(root, 1);
        return { dirs: found };
      }
      default:
        throw new Refused('invalid', `Unknown action ${req.action}`);
    }
  }
}
/**
 * The worker's program text for `node -e`. Its modules are passed in from the program's own
 * `require` (text here, so no bundler renames it: the agent is an ES module bundle).
 */
export const workerSource = `(${filesWorker.toString()})(require('node:fs'), require('node:path'))`;
