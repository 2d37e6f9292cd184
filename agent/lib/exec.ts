import { execFile } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the program's standard input (passwords for chpasswd, never argv). */
  input?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  cwd?: string;
}

/**
 * Runs a program with an argv array, never through a shell. Resolves with the exit code; a
 * program that cannot start or outlives its time-out rejects.
 */
export function run(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          LANG: 'C.UTF-8',
          ...options.env,
        },
        uid: options.uid,
        gid: options.gid,
        cwd: options.cwd,
        shell: false,
      },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? null : 0;
        if (code === null) return reject(error);
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs and insists on success; the error carries the program's own message. */
export async function runOk(
  file: string,
  args: readonly string[],
  options?: RunOptions,
): Promise<RunResult> {
  const result = await run(file, args, options);
  if (result.code !== 0) {
    const detail = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ');
    throw new Error(`${file.split('/').pop()} failed (${result.code}): ${detail}`);
  }
  return result;
}
