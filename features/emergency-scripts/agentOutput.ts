import { spawn } from 'node:child_process';
import readline from 'node:readline';
import type { OpContext } from '../../agent/ops/types';

/** Lines of one program's output shown live; the rest is counted, not sent. */
const MAX_LINES = 200;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The script's live output: each line a progress event of the op (the panel's task events),
 * the code the share of the script's steps done (0..10).
 */
export class Output {
  private done = 0;

  constructor(
    private readonly ctx: OpContext,
    private readonly steps: number,
  ) {}

  say(text: string): void {
    const code = Math.min(9, Math.floor((10 * this.done) / Math.max(1, this.steps)));
    for (const line of text.split('\n'))
      if (line.trim()) this.ctx.progress(line.slice(0, 500), code);
  }

  /** One step of the script is over. */
  next(): void {
    this.done += 1;
  }
}

export interface Streamed {
  code: number;
  lines: string[];
}

/**
 * Runs a program (argv, never a shell) and says each line of its output as it comes. For
 * programs that end: a daemon started by an init script may hold a pipe open for ever, so
 * services are restarted through agent/lib/init instead.
 */
export function stream(
  out: Output,
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      env: { PATH, LANG: 'C', ...options.env },
    });
    const lines: string[] = [];
    let extra = 0;
    const take = (line: string) => {
      if (lines.length < MAX_LINES) {
        lines.push(line);
        if (!options.quiet) out.say(line);
      } else extra += 1;
    };
    readline.createInterface({ input: child.stdout }).on('line', take);
    readline.createInterface({ input: child.stderr }).on('line', take);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} took longer than ${options.timeoutMs} ms`));
    }, options.timeoutMs ?? 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (extra > 0 && !options.quiet) out.say(`... and ${extra} more lines`);
      resolve({ code: status ?? (signal ? 128 : 1), lines });
    });
  });
}

/** 1.5 GB, 320 MB, 12 KB: sizes as people read them. */
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
