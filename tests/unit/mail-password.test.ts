import { argon2Verify } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { hashMailPassword } from '../../features/mail/serverPassword';

/**
 * What the panel sends the server for a mailbox password: Dovecot's argon2id PHC string (several
 * at once, each with its own salt), verified here by another argon2 implementation (hash-wasm).
 */
describe('a mailbox password hash', () => {
  it('is argon2id with the settings Dovecot is given, and verifies', async () => {
    const hash = await hashMailPassword('a long mail password');
    expect(hash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(await argon2Verify({ password: 'a long mail password', hash })).toBe(true);
    expect(await argon2Verify({ password: 'another password', hash })).toBe(false);
  });

  it('hashes many at once, each with its own salt', async () => {
    const passwords = Array.from({ length: 6 }, (_, i) => `password number ${i % 3}`);
    const hashes = await Promise.all(passwords.map(hashMailPassword));
    expect(new Set(hashes).size).toBe(6);
    for (const [i, hash] of hashes.entries())
      expect(await argon2Verify({ password: passwords[i]!, hash })).toBe(true);
  });

  it('takes any text, quotes and line breaks included, as the password', async () => {
    const odd = 'pässwörd "quoted"\n\ttab and ünïcode 🔑';
    expect(await argon2Verify({ password: odd, hash: await hashMailPassword(odd) })).toBe(true);
  });
});
