import { randomInt } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = `${LETTERS}${LETTERS.toUpperCase()}0123456789`;
/** Characters of generated passwords: no quote, backslash, space or $ (safe in any config). */
const PASSWORD = `${ALNUM}!#%*+-.:=?@^_~`;
/** WordPress's key and salt characters, without those a PHP single-quoted string escapes. */
const SALT = `${ALNUM}!@#%^&*()-_=+[]{}<>~.,;:|/?`;

/** `n` characters drawn uniformly from `alphabet` (crypto.randomInt: no modulo bias). */
export function randomFrom(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A generated password: never fixed, never the same twice. */
export const generatedPassword = (length = 24) => randomFrom(PASSWORD, length);
/** A WordPress key or salt (64 characters). */
export const generatedSalt = () => randomFrom(SALT, 64);
/** A short random suffix of lower-case letters and digits (table prefixes). */
export const randomSuffix = (length: number) => randomFrom(`${LETTERS}0123456789`, length);
