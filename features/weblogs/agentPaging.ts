/**
 * Pages of a log from its end: page 1 is the newest 100 lines, page N the 100 before page N-1,
 * continuing into the files logrotate rotated (`<file>.1`, `<file>.2.gz`...). Plain files are read
 * backwards in chunks, so a page costs what its lines and the ones after it cost, never the
 * file's size.
 * Agent side (node:fs); pure of the panel.
 */
import fs from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

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

/** Rotated files logrotate keeps (`rotate 14`, one more while a rotation runs). */
export const MAX_ROTATED = 15;

interface Segment {
  path: string;
  gz: boolean;
  size: number;
}

/**
 * The log's files, newest first: the live one, then `.1`, `.2.gz`... (delaycompress keeps `.1`
 * plain; either form is read at every number). Only regular files count; a gap ends the list.
 */
async function segmentsOf(file: string): Promise<Segment[]> {
  const live = await fs.lstat(file).catch(() => null);
  const list: Segment[] = [{ path: file, gz: false, size: live?.isFile() ? live.size : 0 }];
  for (let n = 1; n <= MAX_ROTATED; n++) {
    let found: Segment | null = null;
    for (const [path, gz] of [
      [`${file}.${n}`, false],
      [`${file}.${n}.gz`, true],
    ] as const) {
      const stat = await fs.lstat(path).catch(() => null);
      if (stat?.isFile()) {
        found = { path, gz, size: stat.size };
        break;
      }
    }
    if (!found) break;
    list.push(found);
  }
  return list;
}

/**
 * The last `want` lines of a compressed rotated file. A gzip stream cannot be read from its
 * end, so it is inflated once, keeping only the lines wanted: a page this deep costs the size
 * of that day's log, the newer pages stay as cheap as before. Its lines are counted on the way.
 */
async function gzTail(
  path: string,
  want: number,
): Promise<{ lines: string[]; more: boolean; count: number }> {
  const handle = await fs
    .open(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    .catch(() => null);
  if (!handle) return { lines: [], more: false, count: 0 };
  const kept: string[] = [];
  let count = 0;
  let rest = '';
  const keep = (line: string) => {
    count++;
    kept.push(cut(line.replace(/\r$/, '')));
    if (kept.length > want) kept.shift();
  };
  try {
    const gunzip = createGunzip();
    gunzip.setEncoding('utf8');
    const stream = handle.createReadStream({ autoClose: false });
    stream.pipe(gunzip);
    for await (const text of gunzip as AsyncIterable<string>) {
      const parts = (rest + text).split('\n');
      rest = parts.pop() ?? '';
      // A line longer than the cut keeps only what is shown of it.
      if (rest.length > MAX_LINE * 4) rest = rest.slice(0, MAX_LINE + 1);
      for (const line of parts) keep(line);
    }
    if (rest) keep(rest);
  } catch {
    // A damaged archive shows what it held up to the damage.
  } finally {
    await handle.close();
  }
  return { lines: kept, more: count > kept.length, count };
}

/** The uncompressed size gzip records in its last four bytes (mod 4 GiB). */
async function gzSize(path: string, size: number): Promise<number> {
  if (size < 18) return 0;
  const handle = await fs
    .open(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    .catch(() => null);
  if (!handle) return 0;
  try {
    const tail = Buffer.alloc(4);
    await handle.read(tail, 0, 4, size - 4);
    return tail.readUInt32LE(0);
  } finally {
    await handle.close();
  }
}

/**
 * Page `page` (1 = newest) of the log at `file`, continuing into the rotated files, newest
 * first. The total is exact for the files read or small enough to count, and estimated from
 * the bytes per line of what was read for the others (`estimated`).
 */
export async function readLogPage(file: string, page: number, perPage = 100): Promise<LogPage> {
  const want = page * perPage;
  const segments = await segmentsOf(file);
  let lines: string[] = [];
  let more = false;
  let total = 0;
  let estimated = false;
  const sample = { lines: 0, bytes: 0 };
  for (const segment of segments) {
    if (segment.size === 0) continue;
    const need = want - lines.length;
    if (need > 0 && segment.gz) {
      const got = await gzTail(segment.path, need);
      lines = [...got.lines, ...lines];
      more = got.more;
      total += got.count;
      continue;
    }
    if (need > 0) {
      const got = await tailLines(segment.path, need);
      lines = [...got.lines, ...lines];
      more = got.more;
      sample.lines += got.lines.length;
      sample.bytes += got.bytes;
      const counted = await countLines(segment.path, segment.size, {
        lines: got.lines.length || sample.lines,
        bytes: got.lines.length ? got.bytes : sample.bytes,
      });
      total += counted.count;
      estimated ||= counted.estimated;
      continue;
    }
    // Beyond the page: an older file that holds lines means an older page.
    more = true;
    if (segment.gz) {
      const perLine = sample.lines ? sample.bytes / sample.lines : 100;
      total += Math.round((await gzSize(segment.path, segment.size)) / perLine);
      estimated = true;
    } else {
      const counted = await countLines(segment.path, segment.size, sample);
      total += counted.count;
      estimated ||= counted.estimated;
    }
  }
  const start = Math.max(0, lines.length - want);
  const end = Math.max(0, lines.length - (page - 1) * perPage);
  return {
    lines: lines.slice(start, end),
    scroll_count: page,
    total_size: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    file_size: segments[0]?.size ?? 0,
    has_more: more,
    estimated,
  };
}
