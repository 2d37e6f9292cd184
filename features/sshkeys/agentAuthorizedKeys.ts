import { sshFingerprint } from '../../resources/agent/fingerprint';

/** A key line of authorized_keys(5): [options] type base64 [comment]. */
export interface AuthorizedKey {
  type: string;
  fingerprint: string;
  comment: string;
}

const KEY_TYPE = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-[a-z0-9-]+@openssh\.com)$/;

/**
 * The key of one line, wherever it starts (options such as `from="..."` may precede it);
 * undefined for blank lines, comments and lines that hold no key.
 */
export function parseKeyLine(line: string): AuthorizedKey | undefined {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return undefined;
  const tokens = text.split(/\s+/);
  const at = tokens.findIndex((t) => KEY_TYPE.test(t));
  const body = at >= 0 ? tokens[at + 1] : undefined;
  if (at < 0 || body === undefined || !/^[A-Za-z0-9+/]+={0,3}$/.test(body)) return undefined;
  const { fingerprint } = sshFingerprint(`${tokens[at]} ${body}`);
  return { type: tokens[at]!, fingerprint, comment: tokens.slice(at + 2).join(' ') };
}

export function listKeys(text: string): AuthorizedKey[] {
  return text
    .split('\n')
    .map(parseKeyLine)
    .filter((k): k is AuthorizedKey => k !== undefined);
}

/**
 * The file with the key appended, unless a key of the same fingerprint is there already (then
 * the text is returned unchanged, added false). Other lines are kept as they are.
 */
export function addKey(
  text: string,
  line: string,
): { text: string; key: AuthorizedKey; added: boolean } {
  const key = parseKeyLine(line);
  if (!key) throw new Error('Not an OpenSSH public key');
  const existing = listKeys(text).find((k) => k.fingerprint === key.fingerprint);
  if (existing) return { text, key: existing, added: false };
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return { text: `${base}${line.trim()}\n`, key, added: true };
}

/** The file without every line holding the key of this fingerprint. */
export function removeKey(text: string, fingerprint: string): { text: string; removed: boolean } {
  let removed = false;
  const kept = text.split('\n').filter((line) => {
    const key = parseKeyLine(line);
    if (key?.fingerprint === fingerprint) {
      removed = true;
      return false;
    }
    return true;
  });
  return { text: removed ? kept.join('\n') : text, removed };
}
