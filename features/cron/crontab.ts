/**
 * The panel's block in a user's crontab: parsed and rendered without touching the lines
 * around it, which are the user's own. Pure text work, tested on its own; the agent reads and
 * writes the file with `crontab`.
 */

import { WRAPPER } from '../webapps/api';

export const BEGIN = '# BEGIN STACKDECK: jobs of the control panel; change them there';
export const END = '# END STACKDECK';
const MARK = /^# stackdeck:job (\d+)$/;

export interface CrontabJob {
  id: number;
  schedule: string;
  command: string;
}

export interface Crontab {
  /** The user's own lines before and after the block, kept as they were. */
  before: string[];
  after: string[];
  jobs: CrontabJob[];
}

/** cron reads a bare `%` as a newline: the command's own are escaped, and read back. */
const escape = (command: string) => command.replace(/%/g, '\\%');
const unescape = (command: string) => command.replace(/\\%/g, '%');

/** Splits a job line into its schedule (five fields or an @ form) and command. */
function splitLine(line: string): { schedule: string; command: string } | null {
  const m = line.startsWith('@')
    ? /^(@\S+)\s+(.*)$/.exec(line)
    : /^(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(line);
  return m ? { schedule: m[1]!, command: unescape(m[2]!) } : null;
}

export function parseCrontab(text: string): Crontab {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const start = lines.indexOf(BEGIN);
  const end = start >= 0 ? lines.indexOf(END, start) : -1;
  if (start < 0 || end < 0) return { before: lines, after: [], jobs: [] };
  const jobs: CrontabJob[] = [];
  for (let i = start + 1; i < end; i++) {
    const mark = MARK.exec(lines[i]!);
    const job = mark ? splitLine(lines[i + 1] ?? '') : null;
    if (mark && job) {
      jobs.push({ id: Number(mark[1]), ...job });
      i++;
    }
  }
  return { before: lines.slice(0, start), after: lines.slice(end + 1), jobs };
}

/** The shell the user's own lines before the block chose (cron's default: /bin/sh). */
const shellBefore = (before: readonly string[]) =>
  before.findLast((l) => /^SHELL\s*=/.test(l))?.replace(/^SHELL\s*=\s*/, '') ?? '/bin/sh';

/**
 * With `limited` (every user but root), the block's jobs run through the limits wrapper as
 * cron's SHELL (`run-limited -c COMMAND`: the command is as the user wrote it), and the
 * user's own shell is set back after the block for their own lines.
 */
export function renderCrontab(tab: Crontab, { limited = false } = {}): string {
  const jobs = [...tab.jobs]
    .sort((a, b) => a.id - b.id)
    .flatMap((j) => [`# stackdeck:job ${j.id}`, `${j.schedule} ${escape(j.command)}`]);
  const block = tab.jobs.length
    ? [
        BEGIN,
        ...(limited ? [`SHELL=${WRAPPER}`, ...jobs, `SHELL=${shellBefore(tab.before)}`] : jobs),
        END,
      ]
    : [];
  const lines = [...tab.before, ...block, ...tab.after];
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The user's own entries (not comments, not blank), for the read-back. */
export const ownLines = (tab: Crontab) =>
  [...tab.before, ...tab.after].filter((l) => l.trim() && !l.trim().startsWith('#')).length;
