import type { Dirent } from 'node:fs';
import type { WorkerKit, WorkerRequest } from './agentWorkerKit';

/**
 * The file worker's reading actions: a folder's page, a file's piece, the folder tree, and the
 * confined place the agent's archive steps act on. Sent as its own text (see agentWorker.ts):
 * self-contained, everything it uses comes in through the kit.
 */
export function listingActions(kit: WorkerKit) {
  const { fs, path, root, Refused, str, place, folder, relOf, entry, isLink } = kit;
  return {
    list(req: WorkerRequest) {
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
    },
    read(req: WorkerRequest) {
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
    },
    place(req: WorkerRequest) {
      // For the agent's archive steps: the confined real folder and entry, checked here.
      const { dir, name, full } = place(str(req.path));
      return { dir, name, full, exists: fs.existsSync(full) || isLink(full) };
    },
    dirs() {
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
    },
  };
}
