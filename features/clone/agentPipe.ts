import { type ChildProcess, spawn } from 'node:child_process';
import { Transform } from 'node:stream';

/** The agent's usual environment for the programs it starts (as agent/lib/exec.ts). */
export const ENV = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
};

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** When a child ends, with its code and the tail of what it said on stderr. */
export function ended(child: ChildProcess): Promise<Ended> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-8_000);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/**
 * `producer | consumer` inside Node (no shell), through `through` when given (a rewrite):
 * every byte the producer wrote counted on the way, `onBytes` called at most every `everyMs`.
 * Either side failing ends the other; a failing `through` ends both and is thrown. Both
 * outcomes returned, for the caller to check both exit codes.
 */
export async function pipeCounted(
  producer: { file: string; args: string[]; input?: Buffer },
  consumer: { file: string; args: string[] },
  onBytes: (bytes: number) => void,
  everyMs = 250,
  through?: Transform,
): Promise<{ from: Ended; to: Ended; bytes: number }> {
  const from = spawn(producer.file, producer.args, {
    env: ENV,
    stdio: [producer.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const to = spawn(consumer.file, consumer.args, { env: ENV, stdio: ['pipe', 'ignore', 'pipe'] });
  const fromEnd = ended(from);
  const toEnd = ended(to);
  let bytes = 0;
  let last = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      const now = Date.now();
      if (now - last >= everyMs) {
        last = now;
        onBytes(bytes);
      }
      done(null, chunk);
    },
  });
  // A side that dies early leaves the other writing into, or waiting on, nothing: end it.
  const stop = (child: ChildProcess) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  void fromEnd.then((r) => r.code !== 0 && stop(to)()).catch(stop(to));
  void toEnd.then((r) => r.code !== 0 && stop(from)()).catch(stop(from));
  to.stdin.on('error', () => undefined); // EPIPE once the consumer is gone: its code says why
  from.stdin?.on('error', () => undefined);
  let failed: Error | null = null;
  through?.on('error', (error: Error) => {
    failed = error;
    // The consumer's input ends too: a client waiting on it would not see the signal.
    to.stdin.destroy();
    stop(from)();
    stop(to)();
  });
  // stdout is a pipe (stdio above); its type only loses that to the conditional stdin.
  const counted = from.stdout!.pipe(counter);
  (through ? counted.pipe(through) : counted).pipe(to.stdin);
  if (producer.input) from.stdin?.end(producer.input);
  const [a, b] = await Promise.all([fromEnd, toEnd]);
  if (failed) throw failed;
  onBytes(bytes);
  return { from: a, to: b, bytes };
}

/** The last meaningful line a program said, for an error message. */
export const lastLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .pop() ?? '';

/** Runs a program (argv, no shell) and keeps its output as bytes: names need not be UTF-8. */
export async function runBytes(
  file: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn(file, args, {
    env: ENV,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  const end = await ended(child);
  return { code: end.code, stdout: Buffer.concat(chunks), stderr: end.stderr };
}

/** A buffer split at NUL bytes (the last, empty piece after a final NUL dropped). */
export function splitNul(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(0); i >= 0; i = buf.indexOf(0, start)) {
    out.push(buf.subarray(start, i));
    start = i + 1;
  }
  if (start < buf.length) out.push(buf.subarray(start));
  return out;
}
