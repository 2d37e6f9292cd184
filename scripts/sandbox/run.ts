import { spawn } from 'node:child_process';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

/**
 * Runs one program with an argv array (never a shell string) and collects its output. The child
 * gets its own process group so a time-out can kill what it started too (nsenter forks).
 */
export function run(
  file: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const out: string[] = [];
    const err: string[] = [];
    let timedOut = false;
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup(child.pid);
          }, opts.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out.push(c);
      opts.onOutput?.(c, 'stdout');
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err.push(c);
      opts.onOutput?.(c, 'stderr');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) err.push(`\n[timed out after ${opts.timeoutMs} ms]\n`);
      resolve({ code, signal, stdout: out.join(''), stderr: err.join('') });
    });
    // A child that exits before reading its input must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Like run, but a non-zero exit is an error that carries the program's own words. */
export async function runOk(
  file: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  const res = await run(file, args, opts);
  if (res.code !== 0) {
    const why = res.signal ? `signal ${res.signal}` : `exit ${res.code}`;
    throw new Error(`${file} ${args.join(' ')}: ${why}\n${res.stderr.trim() || res.stdout.trim()}`);
  }
  return res;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
