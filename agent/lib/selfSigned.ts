import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from './exec';
import { OpError } from './opError';

/**
 * A self-signed certificate and its key for `commonName` (RSA 2048, ten years), made by openssl
 * in a folder only root enters (mkdtemp's 0700), so the key is never readable on its way; the
 * caller writes them where its service reads them. Services that speak TLS before the panel's
 * SSL feature gives them a real certificate (FTP, mail) start with one of these.
 */
export async function selfSignedPair(commonName: string): Promise<{ key: string; cert: string }> {
  const cn = /^[A-Za-z0-9.-]{1,64}$/.test(commonName) ? commonName : 'localhost';
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-tls-'));
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
      `/CN=${cn}`,
      '-keyout',
      `${dir}/key.pem`,
      '-out',
      `${dir}/cert.pem`,
    ]);
    if (res.code !== 0) throw new OpError('failed', `openssl: ${res.stderr.trim()}`);
    return {
      key: await fs.readFile(`${dir}/key.pem`, 'utf8'),
      cert: await fs.readFile(`${dir}/cert.pem`, 'utf8'),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
