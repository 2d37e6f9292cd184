import { createHash } from 'node:crypto';

/**
 * OpenSSH's SHA256 fingerprint of a public key line (`ssh-keygen -lf` prints the same). Shared
 * by the panel (de-duplication before the op) and the agent (authorized_keys on the server).
 * Node only (node:crypto): not for the browser bundle.
 */
export function sshFingerprint(line: string): { type: string; fingerprint: string } {
  const [type = '', body = ''] = line.trim().split(/\s+/);
  const digest = createHash('sha256')
    .update(Buffer.from(body, 'base64'))
    .digest('base64')
    .replace(/=+$/, '');
  return { type, fingerprint: `SHA256:${digest}` };
}
