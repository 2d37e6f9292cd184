/**
 * The panel's own way into a repository on an S3 or SFTP storage (the recovery key): what restic
 * must read from files (an SFTP storage's account key and pinned host keys for restic's ssh, an
 * S3 storage's own CA for `--cacert`) written to a fresh folder only the panel's user enters
 * (0700, files 0600), and removed when the work ends, however it ends.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { knownHostPattern } from './schemas';
import type { PanelRepo } from './serverPanelRestic';
import type { OpTarget } from './serverStores';

const HOST = /^sftp:[^@]+@([A-Za-z0-9][A-Za-z0-9.-]*):\//;

/** Runs fn with the PanelRepo of a storage's target (its files written for fn only). */
export async function withTargetRepo<T>(
  target: OpTarget,
  fn: (repo: PanelRepo) => Promise<T>,
): Promise<T> {
  const { sftp, cacert_pem: caPem } = target;
  const repo: PanelRepo = { path: target.repository, password: target.password, env: target.env };
  if (!sftp && !caPem) return fn(repo);
  const host = HOST.exec(target.repository)?.[1];
  if (sftp && (!sftp.private_key || !sftp.host_keys?.length || !host))
    throw new Error('This SFTP storage has no key or pinned host key');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stackdeck-storage-'));
  try {
    if (caPem) {
      repo.cacert = path.join(dir, 'ca.pem');
      await writeFile(repo.cacert, `${caPem.trim()}\n`, { mode: 0o600, flag: 'wx' });
    }
    if (sftp?.private_key && sftp.host_keys && host) {
      const identity = path.join(dir, 'id');
      const knownHosts = path.join(dir, 'known_hosts');
      const pattern = knownHostPattern(host, sftp.port);
      await writeFile(identity, sftp.private_key, { mode: 0o600, flag: 'wx' });
      await writeFile(knownHosts, sftp.host_keys.map((k) => `${pattern} ${k}\n`).join(''), {
        mode: 0o600,
        flag: 'wx',
      });
      repo.sftp = {
        ...(sftp.port ? { port: sftp.port } : {}),
        identity_file: identity,
        known_hosts_file: knownHosts,
      };
    }
    return await fn(repo);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
