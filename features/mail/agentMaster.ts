import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { argon2Verify, argon2id } from 'hash-wasm';
import { writeFileAtomic } from '../../agent/lib/files';
import { MASTER_PASSWD, MASTER_SECRET, MASTER_USER } from './agentConfigs';

/**
 * The webmail's Dovecot master user: its secret is made on this server and kept only here
 * (0600 root); Dovecot gets its argon2id hash, usable from loopback only (allow_nets).
 */
export async function masterSecret(): Promise<string> {
  const now = await fs.readFile(MASTER_SECRET, 'utf8').catch(() => null);
  if (now?.trim()) return now.trim();
  const secret = randomBytes(32).toString('base64url');
  await writeFileAtomic(MASTER_SECRET, `${secret}\n`, 0o600, { uid: 0, gid: 0 });
  return secret;
}

export async function ensureMasterPasswd(dovecotGid: number): Promise<void> {
  const secret = await masterSecret();
  const now = await fs.readFile(MASTER_PASSWD, 'utf8').catch(() => '');
  const old = /^stackdeck:\{ARGON2ID\}(\S+?):/.exec(now)?.[1];
  // Kept while it still matches the secret: no new hash (and salt) on every enable.
  if (old && (await verify(secret, old))) return;
  const hash = await argon2id({
    password: secret,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: 2,
    memorySize: 19456,
    hashLength: 32,
    outputType: 'encoded',
  });
  await writeFileAtomic(
    MASTER_PASSWD,
    `${MASTER_USER}:{ARGON2ID}${hash}::::::allow_nets=127.0.0.1/32,::1/128\n`,
    0o640,
    { uid: 0, gid: dovecotGid },
  );
}

async function verify(secret: string, hash: string): Promise<boolean> {
  return argon2Verify({ password: secret, hash }).catch(() => false);
}
