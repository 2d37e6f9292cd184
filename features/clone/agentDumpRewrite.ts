/**
 * The search-and-replace of a clone, done on the dump on its way from `mariadb-dump` to
 * `mariadb` (research §3, step 4): the copy is written once, already rewritten, instead of
 * being loaded and then read and updated row by row (which took as long as the copy itself).
 *
 * The dump is mariadb-dump's own (`--complete-insert --hex-blob`, utf8mb4): an INSERT's rows
 * follow its header on the same line or one per line (MariaDB 10.11), never across lines (a
 * newline inside a value is written `\n`); string values are single-quoted with backslash
 * escapes, binary values are `0x…` hex. Only the values of the columns the plan names
 * are touched, each through replaceInValue (PHP-serialized data kept valid); everything else
 * (other statements, other columns, tables outside the plan) passes byte for byte. A line that
 * does not read as expected fails the copy rather than being passed on half-replaced.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { type Pair, replaceInValue } from './serialized';

/** How a column's values are rewritten: quoted text, or `0x` hex (blobs with --hex-blob). */
export type ColumnMode = 'text' | 'blob';
/** Table -> column -> mode, for the columns whose values may hold an address. */
export type DumpPlan = Map<string, Map<string, ColumnMode>>;

export class DumpFormatError extends Error {}

const QUOTE = 0x27;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE = 0x29;
const NEWLINE = 0x0a;
const INSERT = Buffer.from('INSERT INTO `');
const VALUES = Buffer.from(') VALUES');

/** What `\x` in a dumped string stands for (MariaDB's escapes); any other `\x` is `x`. */
const UNESCAPE: Record<number, number> = {
  0x30: 0,
  0x6e: 10,
  0x72: 13,
  0x5a: 26,
  0x74: 9,
  0x62: 8,
};
/** How the client escapes a byte in a quoted string (mysql_real_escape_string). */
const ESCAPE: Record<number, string> = {
  0: '\\0',
  10: '\\n',
  13: '\\r',
  26: '\\Z',
  0x5c: '\\\\',
  0x27: "\\'",
  0x22: '\\"',
};

export function unescapeSql(raw: Buffer): Buffer {
  if (raw.indexOf(BACKSLASH) < 0) return raw;
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    let b = raw[i]!;
    if (b === BACKSLASH && i + 1 < raw.length) {
      const next = raw[++i]!;
      b = UNESCAPE[next] ?? next;
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}

export function escapeSql(value: Buffer): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const escaped = ESCAPE[value[i]!];
    if (escaped === undefined) continue;
    parts.push(value.subarray(start, i), Buffer.from(escaped, 'latin1'));
    start = i + 1;
  }
  if (!parts.length) return value;
  parts.push(value.subarray(start));
  return Buffer.concat(parts);
}

/** The index of the quote that closes the string whose first byte is at `start`. */
function stringEnd(line: Buffer, start: number): number {
  for (let i = start; ;) {
    const quote = line.indexOf(QUOTE, i);
    if (quote < 0) throw new DumpFormatError('a string value does not end');
    // An odd run of backslashes before it escapes it.
    let run = 0;
    for (let b = quote - 1; b >= start && line[b] === BACKSLASH; b--) run++;
    if (run % 2 === 0) return quote;
    i = quote + 1;
  }
}

/** The end of an unquoted value (a number, NULL, 0x…): the next `,` or `)`. */
function bareEnd(line: Buffer, start: number): number {
  for (let i = start; i < line.length; i++) {
    const b = line[i]!;
    if (b === COMMA || b === CLOSE) return i;
    if (b === QUOTE) i = stringEnd(line, i + 1); // b'0101' and the like
  }
  throw new DumpFormatError('a value does not end');
}

/** The column names of `(`a`,`b`)`; a name we cannot read is ''. */
function columnsOf(list: string): string[] {
  return list.split(',').map((c) => /^`([A-Za-z0-9_$]{1,64})`$/.exec(c.trim())?.[1] ?? '');
}

interface Needles {
  /** The search texts as they appear inside a dumped string, and as hex inside 0x…. */
  quoted: Buffer[];
  hex: Buffer[];
}

function needlesOf(pairs: readonly Pair[]): Needles {
  const froms = [...new Set(pairs.map(([f]) => f))].filter(
    (f, _, all) => f !== '' && !all.some((g) => g !== f && g !== '' && f.includes(g)),
  );
  const bytes = froms.map((f) => Buffer.from(f, 'utf8'));
  return {
    quoted: bytes.map(escapeSql),
    hex: bytes.map((b) => Buffer.from(b.toString('hex').toUpperCase(), 'latin1')),
  };
}

const holds = (buf: Buffer, needles: Buffer[]) => needles.some((n) => buf.includes(n));

/** Rewrites dump lines; counts the rows it changed and the values it had to leave as they were. */
export class DumpRewriter {
  rowsChanged = 0;
  valuesSkipped = 0;
  private readonly needles: Needles;

  constructor(
    private readonly plan: DumpPlan,
    private readonly pairs: Pair[],
  ) {
    this.needles = needlesOf(pairs);
  }

  /** The INSERT whose rows the next lines hold (MariaDB 10.11 writes one row per line). */
  private current: { table: string; modeOf: (ColumnMode | undefined)[] | null } | null = null;

  /** One line of the dump, without its newline: the same bytes unless a value changed. */
  line(line: Buffer): Buffer {
    let pos = 0;
    if (!this.current) {
      if (line.length < INSERT.length || !line.subarray(0, INSERT.length).equals(INSERT))
        return line;
      const nameEnd = line.indexOf(0x60, INSERT.length);
      const table = line.subarray(INSERT.length, nameEnd).toString('utf8');
      const valuesAt = line.indexOf(VALUES, nameEnd);
      const listAt = line.indexOf(0x28, nameEnd); // (
      if (valuesAt < 0 || listAt < 0 || listAt > valuesAt)
        throw new DumpFormatError(`the dump of ${table} has no column list`);
      const modes = this.pairs.length ? this.plan.get(table) : undefined;
      const columns = columnsOf(line.subarray(listAt + 1, valuesAt).toString('utf8'));
      this.current = { table, modeOf: modes ? columns.map((c) => modes.get(c)) : null };
      pos = valuesAt + VALUES.length;
      if (line[pos] === 0x20) pos++;
      if (pos >= line.length) return line; // the rows follow, a line each
    }
    const { table, modeOf } = this.current;
    if (!modeOf || (!holds(line, this.needles.quoted) && !holds(line, this.needles.hex))) {
      // A row ends its line with `,` or `;` (a newline in a value is written `\n`).
      if (line[line.length - 1] === 0x3b) this.current = null;
      return line;
    }

    const out: Buffer[] = [];
    let copied = 0;
    for (;;) {
      if (line[pos] !== 0x28) throw new DumpFormatError(`a row of ${table} does not start`);
      pos++;
      let changedRow = false;
      for (let col = 0; ; col++) {
        const mode = modeOf[col];
        let end: number;
        if (line[pos] === QUOTE) {
          end = stringEnd(line, pos + 1) + 1;
          if (mode === 'text') {
            const raw = line.subarray(pos + 1, end - 1);
            if (holds(raw, this.needles.quoted)) {
              const result = replaceInValue(unescapeSql(raw), this.pairs);
              if (result.skipped) this.valuesSkipped++;
              if (result.changed) {
                out.push(line.subarray(copied, pos + 1), escapeSql(result.value));
                copied = end - 1;
                changedRow = true;
              }
            }
          }
        } else {
          end = bareEnd(line, pos);
          if (mode === 'blob' && line[pos] === 0x30 && line[pos + 1] === 0x78) {
            const hex = line.subarray(pos + 2, end);
            if (holds(hex, this.needles.hex)) {
              const result = replaceInValue(Buffer.from(hex.toString('latin1'), 'hex'), this.pairs);
              if (result.skipped) this.valuesSkipped++;
              if (result.changed) {
                out.push(
                  line.subarray(copied, pos + 2),
                  Buffer.from(result.value.toString('hex').toUpperCase(), 'latin1'),
                );
                copied = end;
                changedRow = true;
              }
            }
          }
        }
        pos = end;
        if (line[pos] === COMMA) {
          pos++;
          continue;
        }
        if (line[pos] !== CLOSE) throw new DumpFormatError(`a row of ${table} does not end`);
        pos++;
        break;
      }
      if (changedRow) this.rowsChanged++;
      if (line[pos] === COMMA && pos === line.length - 1) break; // the next row is the next line
      if (line[pos] === COMMA) {
        pos++;
        continue;
      }
      if (line[pos] === 0x3b && pos === line.length - 1) {
        this.current = null;
        break;
      }
      throw new DumpFormatError(`the INSERT of ${table} does not end`);
    }
    if (!out.length) return line;
    out.push(line.subarray(copied));
    return Buffer.concat(out);
  }

  /** The rewrite as a stream stage: whole lines in, whole lines out. */
  stream(): Transform {
    const pending: Buffer[] = [];
    const emit = (stage: Transform, line: Buffer) => stage.push(this.line(line));
    return new Transform({
      transform: (chunk: Buffer, _enc, done: TransformCallback) => {
        try {
          let start = 0;
          const parts: Buffer[] = [];
          for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
            pending.push(chunk.subarray(start, nl));
            const line = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
            pending.length = 0;
            parts.push(this.line(line), NL);
            start = nl + 1;
          }
          if (start < chunk.length) pending.push(chunk.subarray(start));
          done(null, parts.length ? Buffer.concat(parts) : undefined);
        } catch (error) {
          done(error as Error);
        }
      },
      flush(this: Transform, done: TransformCallback) {
        try {
          if (pending.length) emit(this, Buffer.concat(pending));
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    });
  }
}

const NL = Buffer.from('\n');
