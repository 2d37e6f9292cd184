import { randomBytes } from 'node:crypto';
import { argon2id } from 'hash-wasm';

/**
 * A mailbox password as it leaves the panel: Dovecot's `{ARGON2ID}` PHC string (OWASP's second
 * argon2id setting: 19 MiB, 2 passes, 1 lane; about 0.1 s here), a random 16-byte salt.
 */
export const hashMailPassword = (password: string): Promise<string> =>
  argon2id({
    password,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: 2,
    memorySize: 19456,
    hashLength: 32,
    outputType: 'encoded',
  });
