/**
 * The listing checks an archive must pass before anything is extracted: read from
 * `tar -tvf` (GNU tar, `--numeric-owner`) or `unzip -Z` (zipinfo) output.
 */
export interface Entry {
  /** The mode string's type letter: - d l h c b p s. */
  type: string;
  mode: string;
  size: number;
  path: string;
}

export interface Limits {
  maxFiles: number;
  maxBytes: number;
}

export const LIMITS: Limits = { maxFiles: 50_000, maxBytes: 2 * 1024 ** 3 };

// -rw-r--r-- 0/0   123 2024-01-01 00:00 path   (links: "path -> target", "path link to target")
const TAR_LINE =
  /^(\S)(\S{9})\s+\S+\s+(\d+|\d+,\s*\d+)\s+\d{4}-\d\d-\d\d\s+\d\d:\d\d(?::\d\d)?\s(.*)$/;

export function parseTarListing(text: string): Entry[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((line) => {
      const m = TAR_LINE.exec(line);
      if (!m) throw new Error(`Unreadable listing line: ${line.slice(0, 200)}`);
      const type = m[1]!;
      let path = m[4]!;
      if (type === 'l') path = path.split(' -> ')[0]!;
      if (type === 'h') path = path.split(' link to ')[0]!;
      const size = /^\d+$/.test(m[3]!) ? Number(m[3]) : 0;
      return { type, mode: m[2]!, size, path };
    });
}

// -rw-r--r--  3.0 unx      123 tx defN 24-Jan-01 00:00 path
const ZIP_LINE = /^(\S)(\S{9})\s+\S+\s+\S+\s+(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s(.*)$/;

export function parseZipListing(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of text.split('\n')) {
    const m = ZIP_LINE.exec(line);
    if (!m) continue; // the header ("Archive: ...", "Zip file size: ...") and the total line
    entries.push({ type: m[1]!, mode: m[2]!, size: Number(m[3]), path: m[4]! });
  }
  return entries;
}

/** The first reason to refuse the archive, or null: it may be extracted. */
export function listingProblem(entries: Entry[], limits: Limits = LIMITS): string | null {
  if (entries.length === 0) return 'The archive is empty';
  if (entries.length > limits.maxFiles)
    return `The archive holds ${entries.length} entries, more than ${limits.maxFiles}`;
  let bytes = 0;
  for (const e of entries) {
    if (e.path.startsWith('/')) return `An absolute path in the archive: ${e.path}`;
    if (e.path.split('/').includes('..')) return `A .. path in the archive: ${e.path}`;
    if (e.type === 'l' || e.type === 'h') return `A link in the archive: ${e.path}`;
    if (e.type !== '-' && e.type !== 'd')
      return `A device, fifo or socket in the archive: ${e.path}`;
    if (/[sS]/.test(e.mode[2]! + e.mode[5]!))
      return `A setuid or setgid file in the archive: ${e.path}`;
    bytes += e.size;
    if (bytes > limits.maxBytes) return `The archive unpacks to more than ${limits.maxBytes} bytes`;
  }
  return null;
}
