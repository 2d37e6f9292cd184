/**
 * Real storage servers for the restic runner's tests, on 127.0.0.1 with random ports: s3rver
 * (S3) over HTTPS with a self-signed certificate made by openssl (over plain HTTP s3rver 3.7.1
 * stores minio's aws-chunked framing inside the objects: research section 1.2), and a dedicated
 * sshd (SFTP) with its own host key, config and authorized key, run as this (root) user.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import S3rver from 's3rver';

const exec = promisify(execFile);

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for 127.0.0.1 (also its own CA file for restic's --cacert). */
export async function selfSignedCert(dir: string): Promise<{ key: string; cert: string }> {
  const key = path.join(dir, 'tls-key.pem');
  const cert = path.join(dir, 'tls-cert.pem');
  await exec('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return { key, cert };
}

export interface S3Server {
  /** `https://127.0.0.1:PORT` */
  endpoint: string;
  /** s3rver's one account. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/** s3rver in this process, over HTTPS, with the buckets given. */
export async function startS3(
  dir: string,
  tls: { key: string; cert: string },
  buckets: string[],
): Promise<S3Server> {
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: path.join(dir, 's3'),
    key: await readFile(tls.key),
    cert: await readFile(tls.cert),
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  await server.run();
  return {
    endpoint: `https://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    close: () => server.close(),
  };
}

export interface SshServer {
  port: number;
  /** The client's private key (authorized for this user). */
  identityFile: string;
  /** The server's host key as ssh's known_hosts line for [127.0.0.1]:PORT. */
  knownHostsFile: string;
  /** The server's host key, `type base64` (what an SFTP target pins). */
  hostKey: string;
  /** Public keys allowed to log in, one a line (more may be appended). */
  authorizedKeysFile: string;
  close(): Promise<void>;
}

/** Waits until something accepts connections on 127.0.0.1:port. */
async function listening(port: number, child: ChildProcess, log: () => string) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`sshd exited ${child.exitCode}: ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not listen on ${port}: ${log()}`);
}

/** `sshd -D` with a config of its own: key login for this user only, internal-sftp. */
export async function startSshd(dir: string): Promise<SshServer> {
  const ssh = path.join(dir, 'ssh');
  await mkdir(ssh, { recursive: true });
  const hostKey = path.join(ssh, 'host_ed25519');
  const identityFile = path.join(ssh, 'client_ed25519');
  for (const key of [hostKey, identityFile])
    await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'stackdeck-test', '-f', key]);
  const authorized = path.join(ssh, 'authorized_keys');
  await writeFile(authorized, await readFile(`${identityFile}.pub`), { mode: 0o600 });
  const port = await freePort();
  const knownHostsFile = path.join(ssh, 'known_hosts');
  const hostPub = (await readFile(`${hostKey}.pub`, 'utf8')).split(' ').slice(0, 2).join(' ');
  await writeFile(knownHostsFile, `[127.0.0.1]:${port} ${hostPub}\n`);
  const config = path.join(ssh, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(ssh, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorized}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  // sshd's privilege separation folder (Debian's init script makes it the same way).
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  await listening(port, child, () => log);
  return {
    port,
    identityFile,
    knownHostsFile,
    hostKey: hostPub.trim(),
    authorizedKeysFile: authorized,
    close: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('close', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Every file under a folder (relative path) with the sha256 of its content. */
export async function digests(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found[path.relative(dir, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return found;
}
