import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Keys generated on first start; never the same on two installs, never in the repo. */
export interface InstallSecrets {
  /** HS256 key for session tokens. */
  jwtKey: Uint8Array;
  /** AES-256-GCM key for credentials stored in the database. */
  encryptionKey: Buffer;
}

const FILE = 'secrets.json';

export function loadOrCreateSecrets(dataDir: string): InstallSecrets {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, FILE);
  try {
    // 'wx' fails when the file exists, so two processes starting together cannot both write.
    const fresh = {
      jwtKey: randomBytes(32).toString('base64'),
      encryptionKey: randomBytes(32).toString('base64'),
    };
    fs.writeFileSync(file, JSON.stringify(fresh, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, 0o600);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    jwtKey?: string;
    encryptionKey?: string;
  };
  if (!stored.jwtKey || !stored.encryptionKey)
    throw new Error(`${file} is incomplete; restore it from a backup`);
  const jwtKey = Buffer.from(stored.jwtKey, 'base64');
  const encryptionKey = Buffer.from(stored.encryptionKey, 'base64');
  if (jwtKey.length < 32 || encryptionKey.length !== 32)
    throw new Error(`${file} holds keys of the wrong size`);
  return { jwtKey: new Uint8Array(jwtKey), encryptionKey };
}
