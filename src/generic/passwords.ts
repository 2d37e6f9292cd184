/** Characters of generated passwords: no colon or line break (system tools refuse them). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#%^*-_=+.,';

/** The spec's generated password length. */
export const GENERATED_PASSWORD_LENGTH = 36;

/** A random password from crypto.getRandomValues, without modulo bias. */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}
