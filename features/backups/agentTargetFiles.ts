/**
 * What the panel sends with a target that restic must read from files, as files for one op only:
 * an SFTP target's key and pinned host keys (`target.sftp.private_key`, `host_keys`) for restic's
 * ssh (`-i`, `UserKnownHostsFile`), and an S3 storage's own CA (`target.cacert_pem`, restic's
 * `--cacert`). They are written to a fresh root-only folder (0700, files 0600) that is removed
 * when the op ends, however it ends. The key never reaches argv, the environment or a log.
 */
import { lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { opFieldError } from '../../agent/lib/opError';
import { SFTP_REPOSITORY, type ResticTarget } from './agentRestic';
import { knownHostPattern } from './schemas';

export { knownHostPattern };

/** Where root's per-op folders go (tmpfs, gone at reboot); elsewhere (tests) the temp folder. */
const ROOT_BASE = '/run/stackdeck/backup-ssh';

async function base(): Promise<string> {
  if (process.getuid?.() !== 0) return os.tmpdir();
  await mkdir(ROOT_BASE, { recursive: true, mode: 0o700 });
  const seen = await lstat(ROOT_BASE);
  if (!seen.isDirectory() || seen.uid !== 0 || (seen.mode & 0o077) !== 0)
    throw new Error(`${ROOT_BASE} is not a root-only folder`);
  return ROOT_BASE;
}

/**
 * Runs fn with args whose target has its SFTP key, host keys and CA as files (when the panel sent
 * them), then removes the files. A target without any is passed through as it is.
 */
export async function withTargetFiles<A extends { target: ResticTarget }, R>(
  args: A,
  fn: (args: A) => Promise<R>,
): Promise<R> {
  const { sftp, cacert_pem: caPem } = args.target;
  const sftpSent = sftp && (sftp.private_key !== undefined || sftp.host_keys !== undefined);
  if (!sftpSent && caPem === undefined) return fn(args);
  if (sftpSent && (!sftp.private_key || !sftp.host_keys?.length))
    throw opFieldError('target', 'An SFTP target needs its key and its host keys');
  const host = sftpSent ? SFTP_REPOSITORY.exec(args.target.repository)?.[2] : undefined;
  if (sftpSent && !host)
    throw opFieldError('repository', 'An SFTP repository is sftp:user@host:/path');
  const dir = await mkdtemp(path.join(await base(), 'op-'));
  try {
    const { cacert_pem: _sent, ...target } = args.target;
    if (caPem !== undefined) {
      target.cacert = path.join(dir, 'ca.pem');
      await writeFile(target.cacert, `${caPem.trim()}\n`, { mode: 0o600, flag: 'wx' });
    }
    if (sftpSent && sftp.private_key && sftp.host_keys) {
      const identity = path.join(dir, 'id');
      const knownHosts = path.join(dir, 'known_hosts');
      const key = sftp.private_key.endsWith('\n') ? sftp.private_key : `${sftp.private_key}\n`;
      const pattern = knownHostPattern(host!, sftp.port);
      await writeFile(identity, key, { mode: 0o600, flag: 'wx' });
      await writeFile(knownHosts, sftp.host_keys.map((k) => `${pattern} ${k}\n`).join(''), {
        mode: 0o600,
        flag: 'wx',
      });
      target.sftp = {
        ...(sftp.port ? { port: sftp.port } : {}),
        identity_file: identity,
        known_hosts_file: knownHosts,
        log_file: path.join(dir, 'ssh.log'),
      };
    }
    return await fn({ ...args, target });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
