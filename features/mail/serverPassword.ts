import { hashPassword } from '../../server/auth/passwords';

/**
 * A mailbox password as it leaves the panel: the argon2id PHC string Dovecot's passwd-file takes
 * (`scheme=ARGON2ID`), with the settings of the panel's own passwords (OWASP: 19 MiB, 2 passes,
 * 1 lane) and a random 16-byte salt. @node-rs/argon2 is native and hashes on its own threads
 * (about 10 ms each here, six times faster than argon2 in WebAssembly), so a thousand new
 * mailboxes neither hold the event loop nor wait on the hashing.
 */
export function hashMailPassword(password: string): Promise<string> {
  return hashPassword(password);
}
