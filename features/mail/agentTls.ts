import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { writeFileAtomic } from '../../agent/lib/files';
import { OpError } from '../../agent/lib/opError';
import { TLS_DIR } from './agentConfigs';

/**
 * Dovecot's and Postfix's certificate: a self-signed one for the host name, made once; the
 * panel's SSL feature replaces the two files with a real one (key 0640 root:dovecot).
 */
export async function ensureMailCertificate(hostname: string, dovecotGid: number): Promise<void> {
  await fs.mkdir(TLS_DIR, { recursive: true, mode: 0o750 });
  await fs.chown(TLS_DIR, 0, dovecotGid);
  if (await fs.stat(`${TLS_DIR}/fullchain.pem`).catch(() => null)) return;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-mail-tls-'));
  try {
    const res = await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '3650',
      '-subj',
      `/CN=${hostname}`,
      '-keyout',
      `${dir}/key.pem`,
      '-out',
      `${dir}/cert.pem`,
    ]);
    if (res.code !== 0) throw new OpError('failed', `openssl: ${res.stderr.trim()}`);
    await writeFileAtomic(`${TLS_DIR}/key.pem`, await fs.readFile(`${dir}/key.pem`), 0o640, {
      uid: 0,
      gid: dovecotGid,
    });
    await writeFileAtomic(`${TLS_DIR}/fullchain.pem`, await fs.readFile(`${dir}/cert.pem`), 0o644);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
