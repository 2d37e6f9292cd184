/**
 * restic's `--json` lines: `status` lines become progress reports (at most one a second, the
 * first at once), the `summary` line the run's figures, and the `error` lines of files it could
 * not read (on stderr) the list a partial run shows. Lines that are not JSON (restore's
 * "restoring <Snapshot ...>") are skipped.
 */
import type { Readable } from 'node:stream';

export interface BackupProgress {
  /** 0..100, rounded down: 100 only once everything was read. */
  percent: number;
  files_done: number;
  total_files: number;
  bytes_done: number;
  total_bytes: number;
  /** A file being read, when restic names one. */
  current_file?: string;
}

export interface BackupSummary {
  snapshot_id: string;
  files_new: number;
  files_changed: number;
  files_unmodified: number;
  /** Bytes the run added to the repository (before compression, in 0.14). */
  data_added: number;
  total_files_processed: number;
  total_bytes_processed: number;
  /** Seconds. */
  total_duration: number;
}

/** A file restic could not read (what makes a run partial, exit code 3). */
export interface Unreadable {
  item: string;
  error: string;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function json(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Calls onLine with each complete line of the stream (the last one even without its newline). */
export function splitLines(stream: Readable, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onLine(line.trim());
  });
  stream.on('end', () => rest.trim() && onLine(rest.trim()));
}

/** errno values restic's error lines carry, in words. */
const ERRNO: Record<number, string> = {
  1: 'operation not permitted',
  2: 'it disappeared during the backup',
  5: 'input/output error (a failing disk?)',
  13: 'permission denied',
};

/** Reads a backup's lines: feed `line` with stdout's lines and `errorLine` with stderr's. */
export class BackupReader {
  summary: BackupSummary | null = null;
  readonly unreadable: Unreadable[] = [];
  private last = -Infinity;

  constructor(
    private readonly onProgress: (p: BackupProgress) => void = () => undefined,
    private readonly everyMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  line(text: string): void {
    const m = json(text);
    if (m?.message_type === 'status') this.status(m);
    else if (m?.message_type === 'summary') this.summary = summaryOf(m);
    else if (m?.message_type === 'error') this.errorLine(text);
  }

  /** A stderr line: `{"message_type":"error","error":{"Op","Path","Err"},"item"}` is kept. */
  errorLine(text: string): void {
    const m = json(text);
    if (m?.message_type !== 'error') return;
    const e = (m.error ?? {}) as Record<string, unknown>;
    const errno = num(e.Err);
    const why =
      ERRNO[errno] ?? (typeof e.Err === 'string' ? e.Err : `${String(e.Op ?? 'read')} failed`);
    // A long run with thousands of unreadable files keeps the first hundred.
    if (this.unreadable.length < 100)
      this.unreadable.push({ item: String(m.item ?? e.Path ?? '?'), error: why });
  }

  private status(m: Record<string, unknown>): void {
    const t = this.now();
    if (t - this.last < this.everyMs) return;
    this.last = t;
    this.onProgress({
      percent: Math.max(0, Math.min(100, Math.floor(num(m.percent_done) * 100))),
      files_done: num(m.files_done),
      total_files: num(m.total_files),
      bytes_done: num(m.bytes_done),
      total_bytes: num(m.total_bytes),
      ...(Array.isArray(m.current_files) && typeof m.current_files[0] === 'string'
        ? { current_file: m.current_files[0] }
        : {}),
    });
  }
}

function summaryOf(m: Record<string, unknown>): BackupSummary | null {
  if (typeof m.snapshot_id !== 'string') return null;
  return {
    snapshot_id: m.snapshot_id,
    files_new: num(m.files_new),
    files_changed: num(m.files_changed),
    files_unmodified: num(m.files_unmodified),
    data_added: num(m.data_added),
    total_files_processed: num(m.total_files_processed),
    total_bytes_processed: num(m.total_bytes_processed),
    total_duration: num(m.total_duration),
  };
}
