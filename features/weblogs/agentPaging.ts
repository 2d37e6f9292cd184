/**
 * Pages of a log from its end: page 1 is the newest 100 lines, page N the 100 before page N-1,
 * continuing into the file logrotate rotated last (`<file>.1`). Files are read backwards in
 * chunks, so a page costs what its lines and the ones after it cost, never the file's size.
 * Agent side (node:fs); pure of the panel.
 */
import fs from 'node:fs/promises';

const CHUNK = 64 * 1024;
/** A longer line is cut here (marked), so one huge line cannot fill memory. */
export const MAX_LINE = 16 * 1024;
/** Files up to this size are counted exactly; beyond it, the count is estimated. */
export const COUNT_EXACTLY_UP_TO = 8 * 1024 * 1024;

export interface LogPage {
  lines: string[];
  scroll_count: number;
  total_size: number;
  total_pages: number;
  file_size: number;
  has_more: boolean;
  estimated: boolean;
}

const cut = (line: string) =>
  line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} … [line cut at 16 KiB]` : line;

/**
 * The last `want` lines of a file, newest last, read backwards (no link followed): them,
 * whether the file holds more before them, its size and the bytes they took.
 */
async function tailLines(
  file: string,
  want: number,
): Promise<{ lines: string[]; more: boolean; size: number; bytes: number }> {
  const handle = await fs
    .open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    .catch(() => null);
  if (!handle) return { lines: [], more: false, size: 0, bytes: 0 };
  try {
    const { size } = await handle.stat();
    let pos = size;
    let rest = Buffer.alloc(0);
    const lines: string[] = [];
    let first = true;
    const line = (b: Buffer) => cut(b.toString('utf8').replace(/\r$/, ''));
    while (lines.length < want) {
      if (pos === 0) {
        // The start of the file: what is left is its first line.
        if (rest.length) lines.push(line(rest));
        rest = Buffer.alloc(0);
        break;
      }
      const length = Math.min(CHUNK, pos);
      pos -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, pos);
      let buf = rest.length ? Buffer.concat([chunk, rest]) : chunk;
      if (first) {
        // The file's last newline ends its last line; it starts no empty one.
        if (buf.length && buf[buf.length - 1] === 0x0a) buf = buf.subarray(0, buf.length - 1);
        first = false;
      }
      let end = buf.length;
      for (let i = end - 1; i >= 0 && lines.length < want; i--) {
        if (buf[i] !== 0x0a) continue;
        lines.push(line(buf.subarray(i + 1, end)));
        end = i;
      }
      rest = buf.subarray(0, end);
      // A line longer than a page shows keeps only its start so far: the chunks read next come
      // before it in the file, so what is kept stays one piece of the line (its beginning), and
      // one byte over the limit makes sure it is marked as cut.
      if (rest.length > MAX_LINE * 4) rest = rest.subarray(0, MAX_LINE + 1);
    }
    return {
      lines: lines.reverse(),
      more: pos > 0 || rest.length > 0,
      size,
      bytes: size - pos - rest.length,
    };
  } finally {
    await handle.close();
  }
}

/** Lines of a whole file, counted (small files) or estimated from what was read (big ones). */
async function countLines(file: string, size: number, sample: { lines: number; bytes: number }) {
  if (size === 0) return { count: 0, estimated: false };
  if (size <= COUNT_EXACTLY_UP_TO) {
    const text = await fs.readFile(file).catch(() => Buffer.alloc(0));
    let count = 0;
    for (let i = text.indexOf(0x0a); i !== -1; i = text.indexOf(0x0a, i + 1)) count++;
    if (text.length && text[text.length - 1] !== 0x0a) count++;
    return { count, estimated: false };
  }
  const perLine = sample.lines ? sample.bytes / sample.lines : 100;
  return { count: Math.round(size / perLine), estimated: true };
}

/** Page `page` (1 = newest) of the log at `file`, continuing into `file.1`. */
export async function readLogPage(file: string, page: number, perPage = 100): Promise<LogPage> {
  const want = page * perPage;
  const current = await tailLines(file, want);
  let lines = current.lines;
  let more = current.more;
  let olderSize = 0;
  let older = { lines: [] as string[], more: false, size: 0, bytes: 0 };
  if (lines.length < want) {
    older = await tailLines(`${file}.1`, want - lines.length);
    lines = [...older.lines, ...lines];
    more = older.more;
    olderSize = older.size;
  } else {
    const stat = await fs.lstat(`${file}.1`).catch(() => null);
    // An empty rotated file (logrotate's copytruncate, a quiet day) holds no older page.
    if (stat?.isFile() && stat.size > 0) {
      olderSize = stat.size;
      more = true;
    }
  }
  const a = await countLines(file, current.size, {
    lines: current.lines.length,
    bytes: current.bytes,
  });
  const b = olderSize
    ? await countLines(`${file}.1`, olderSize, {
        lines: older.lines.length || current.lines.length,
        bytes: older.lines.length ? older.bytes : current.bytes,
      })
    : { count: 0, estimated: false };
  const total = a.count + b.count;
  const start = Math.max(0, lines.length - want);
  const end = Math.max(0, lines.length - (page - 1) * perPage);
  return {
    lines: lines.slice(start, end),
    scroll_count: page,
    total_size: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    file_size: current.size,
    has_more: more,
    estimated: a.estimated || b.estimated,
  };
}
