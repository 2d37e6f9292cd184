/**
 * SQL as root over the unix socket, through the `mariadb` client with the statements on its
 * standard input (as features/databases/agent.ts), without a limit on what comes back: a batch
 * of rows read as hex can be large. Nothing here builds SQL from a value: names are checked
 * against an allowlist and backquoted, values travel as hex.
 */
import { spawn } from 'node:child_process';
import { OpError } from '../../agent/lib/opError';
import { ENV, ended } from './agentPipe';

/** Table and column names the replace works on; anything else is reported, never quoted. */
export const IDENT = /^[A-Za-z0-9_$]{1,64}$/;

export function q(name: string): string {
  if (!IDENT.test(name)) throw new Error(`Refused identifier ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

/** A value as a literal that cannot be anything but data. */
export const hexValue = (value: Buffer) => `UNHEX('${value.toString('hex')}')`;

/** The client's options: bytes as they are, no client commands, big rows allowed. */
export const CLIENT = [
  '--batch',
  '--skip-column-names',
  '--raw',
  '--default-character-set=utf8mb4',
  '--max-allowed-packet=1G',
];

/** Runs the statements (in `db` when given); rows tab-separated, NULL as `NULL`. */
export async function sql(statements: string, db?: string): Promise<string[][]> {
  const child = spawn('mariadb', [...CLIENT, ...(db ? [db] : [])], {
    env: ENV,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  child.stdin.on('error', () => undefined);
  const end = ended(child);
  child.stdin.end(statements);
  const { code, stderr } = await end;
  if (code !== 0) {
    const said = stderr.trim().split('\n').pop() ?? '';
    throw new OpError(
      'failed',
      `MariaDB: ${said.replace(/^ERROR \d+ \(\w+\)( at line \d+)?: /, '')}`,
    );
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}
