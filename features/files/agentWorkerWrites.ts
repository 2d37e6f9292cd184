import type { WorkerKit, WorkerRequest } from './agentWorkerKit';

/**
 * The file worker's changing actions: write (new, append, save over), mkdir, delete (or to the
 * trash), copy, move, rename and permissions. Sent as its own text (see agentWorker.ts):
 * self-contained, everything it uses comes in through the kit.
 */
export function writeActions(kit: WorkerKit) {
  const { fs, path, root, Refused, str, place, folder, relOf, entry, mustNotExist } = kit;
  const copyOrMove = (req: WorkerRequest) => {
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
  };
  return {
    write(req: WorkerRequest) {
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
    },
    mkdir(req: WorkerRequest) {
      const { full } = place(str(req.path));
      mustNotExist(full);
      fs.mkdirSync(full, { mode: 0o755 });
      return { ...entry(full), etag: undefined };
    },
    delete(req: WorkerRequest) {
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
    },
    copy: copyOrMove,
    move: copyOrMove,
    rename(req: WorkerRequest) {
      const { full, dir } = place((req.paths as string[])[0]!);
      if (full === root) throw new Refused('invalid', "Not the app's folder itself", 'paths');
      fs.lstatSync(full);
      const to = path.join(dir, str(req.name));
      mustNotExist(to);
      fs.renameSync(full, to);
      return { done: [relOf(to)] };
    },
    permissions(req: WorkerRequest) {
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
    },
  };
}
