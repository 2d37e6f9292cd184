import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { selfSignedPair } from '../../agent/lib/selfSigned';
import { TLS_DIR } from './agentConfigs';

/**
 * Dovecot's and Postfix's certificate: a self-signed one for the host name, made once; the
 * panel's SSL feature replaces the two files with a real one (key 0640 root:dovecot).
 */
export async function ensureMailCertificate(hostname: string, dovecotGid: number): Promise<void> {
  await fs.mkdir(TLS_DIR, { recursive: true, mode: 0o750 });
  await fs.chown(TLS_DIR, 0, dovecotGid);
  if (await fs.stat(`${TLS_DIR}/fullchain.pem`).catch(() => null)) return;
  const { key, cert } = await selfSignedPair(hostname);
  await writeFileAtomic(`${TLS_DIR}/key.pem`, key, 0o640, { uid: 0, gid: dovecotGid });
  await writeFileAtomic(`${TLS_DIR}/fullchain.pem`, cert, 0o644);
}
