import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import { applyConfig } from '../../agent/lib/configTransaction';
import { writeFileAtomic } from '../../agent/lib/files';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
import { OpError } from '../../agent/lib/opError';
import {
  DKIM_KEYS,
  DKIM_SELECTOR,
  OPENDKIM_CONF,
  OPENDKIM_CONF_TEXT,
  OPENDKIM_DIR,
  TRUSTED_HOSTS,
  renderDkimTables,
} from './agentConfigs';
import { listDomains } from './agentState';

const keyFile = (domain: string) => `${DKIM_KEYS}/${domain}/${DKIM_SELECTOR}.private`;

async function opendkimIds(): Promise<{ uid: number; gid: number }> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8');
  const f = passwd
    .split('\n')
    .find((l) => l.startsWith('opendkim:'))
    ?.split(':');
  if (!f) throw new OpError('failed', 'The opendkim user is missing: is OpenDKIM installed?');
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

/**
 * The domain's key (RSA 2048, made here once and kept: its DNS record stays valid), 0600
 * opendkim in a 0750 folder; answers the public key as base64 of the SPKI DER.
 */
export async function ensureDkimKey(domain: string): Promise<string> {
  let pem = await fs.readFile(keyFile(domain), 'utf8').catch(() => null);
  if (!pem) {
    const ids = await opendkimIds();
    const dir = `${DKIM_KEYS}/${domain}`;
    await fs.mkdir(DKIM_KEYS, { recursive: true, mode: 0o750 });
    await fs.chown(DKIM_KEYS, ids.uid, ids.gid);
    await fs.mkdir(dir, { recursive: true, mode: 0o750 });
    await fs.chown(dir, ids.uid, ids.gid);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    await writeFileAtomic(keyFile(domain), pem, 0o600, ids);
  }
  return createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64');
}

async function reloadOpendkim(): Promise<void> {
  const systemd = await hasSystemd();
  const running = await unitRunning('opendkim', systemd);
  // Debian's reload is SIGUSR1 (unit and init.d alike): the tables are read again.
  const res = await unitAction('opendkim', running ? 'reload' : 'start', systemd);
  if (res.code !== 0) throw new Error(`opendkim ${running ? 'reload' : 'start'}: ${res.output}`);
}

/**
 * opendkim.conf and the tables of every domain with a key, through a transaction
 * (`opendkim -n` checks, USR1 reloads); a domain without a key is not listed: a KeyTable line
 * without its key crashes opendkim (OpenDKIM#118).
 */
export async function syncDkim(): Promise<void> {
  const domains: string[] = [];
  for (const d of await listDomains())
    if (await fs.stat(keyFile(d)).catch(() => null)) domains.push(d);
  const { keyTable, signingTable } = renderDkimTables(domains);
  await fs.mkdir(OPENDKIM_DIR, { recursive: true, mode: 0o755 });
  await applyConfig({
    program: 'opendkim',
    files: [
      { path: OPENDKIM_CONF, content: OPENDKIM_CONF_TEXT, mode: 0o644 },
      { path: `${OPENDKIM_DIR}/KeyTable`, content: keyTable, mode: 0o644 },
      { path: `${OPENDKIM_DIR}/SigningTable`, content: signingTable, mode: 0o644 },
      { path: `${OPENDKIM_DIR}/TrustedHosts`, content: TRUSTED_HOSTS, mode: 0o644 },
    ],
    check: ['opendkim', '-n', '-x', OPENDKIM_CONF],
    reload: reloadOpendkim,
  });
}

export async function removeDkimKey(domain: string): Promise<void> {
  await fs.rm(`${DKIM_KEYS}/${domain}`, { recursive: true, force: true });
}
