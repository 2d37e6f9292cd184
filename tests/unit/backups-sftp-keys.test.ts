import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownHostPattern } from '../../features/backups/agentTargetFiles';
import { backupTargetInput, hostKeysOf, sftpSchema } from '../../features/backups/schemas';
import { newSshKeyPair, openSshEd25519 } from '../../features/backups/serverSshKeys';

const exec = promisify(execFile);
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sftp-keys-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What `ssh-keygen -y` reads back from a private key file: its public key line. */
async function publicOf(privateKey: string): Promise<string> {
  const file = path.join(dir, `key-${Math.random().toString(36).slice(2)}`);
  await writeFile(file, privateKey, { mode: 0o600 });
  return (await exec('ssh-keygen', ['-y', '-f', file])).stdout.trim();
}

const ED = 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';

describe("the account's SSH key for SFTP storage", () => {
  it('is an OpenSSH private key that ssh-keygen opens, with the same public key', async () => {
    for (let i = 0; i < 3; i++) {
      const pair = newSshKeyPair();
      expect(pair.privateKey).toMatch(
        /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END OPENSSH PRIVATE KEY-----\n$/,
      );
      expect(pair.publicKey).toMatch(
        /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5[A-Za-z0-9+/]+=* stackdeck-backups$/,
      );
      expect(await publicOf(pair.privateKey)).toBe(pair.publicKey);
      // What the op schema lets through to the agent.
      expect(sftpSchema.safeParse({ private_key: pair.privateKey }).success).toBe(true);
    }
  });

  it('pads the private section to 8 bytes whatever the comment is', async () => {
    const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    for (const comment of ['a', 'ab', 'abc', 'abcd', 'abcdefg', 'x'.repeat(20)]) {
      const made = openSshEd25519(
        Buffer.from(jwk.d!, 'base64url'),
        Buffer.from(jwk.x!, 'base64url'),
        comment,
      );
      expect(await publicOf(made.privateKey)).toBe(made.publicKey);
      expect(made.publicKey.endsWith(` ${comment}`)).toBe(true);
    }
  });

  it('refuses keys of the wrong size', () => {
    expect(() => openSshEd25519(Buffer.alloc(31), Buffer.alloc(32))).toThrow();
  });
});

describe("an SFTP storage's host keys (what ssh-keyscan prints)", () => {
  const scan = [
    '# box.example:23 SSH-2.0-OpenSSH_9.2p1 Debian-2',
    `[box.example]:23 ssh-ed25519 ${ED}`,
    '# box.example:23 SSH-2.0-OpenSSH_9.2p1 Debian-2',
    '[box.example]:23 ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg=',
    '',
  ].join('\r\n');

  it('keeps each `type base64` of an allowed type, without hosts or comments', () => {
    expect(hostKeysOf(scan)).toEqual([
      `ssh-ed25519 ${ED}`,
      'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg=',
    ]);
    // A bare key line, a known_hosts line with a comment, the same key twice: once.
    expect(hostKeysOf(`ssh-ed25519 ${ED}\nbox ssh-ed25519 ${ED} root@box`)).toEqual([
      `ssh-ed25519 ${ED}`,
    ]);
  });

  it('leaves out other types, a blob of another type, options and garbage', () => {
    expect(hostKeysOf('')).toEqual([]);
    expect(hostKeysOf('# only a comment')).toEqual([]);
    expect(hostKeysOf('not a key')).toEqual([]);
    expect(hostKeysOf(`box ssh-dss ${ED}`)).toEqual([]);
    // An ed25519 blob said to be RSA.
    expect(hostKeysOf(`box ssh-rsa ${ED}`)).toEqual([]);
    expect(hostKeysOf('box ssh-ed25519 AAAA-not-base64!')).toEqual([]);
    expect(hostKeysOf(`box ssh-ed25519 ${ED} -oProxyCommand=x`)).toEqual([`ssh-ed25519 ${ED}`]);
  });

  it('is a field error in words on the form when none is found', () => {
    const form = {
      kind: 'sftp',
      name: 'box',
      host: 'box.example:23',
      user: 'backup',
      path: '/srv/restic',
    };
    const bad = backupTargetInput.safeParse({ ...form, known_host: '# box SSH-2.0\nnot a key' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'known_host',
        'No host key found: paste what `ssh-keyscan -p PORT host` prints (ed25519, ECDSA or RSA keys)',
      ],
    ]);
    const good = backupTargetInput.parse({ ...form, known_host: scan });
    expect(good.kind === 'sftp' && hostKeysOf(good.known_host)).toHaveLength(2);
  });

  it('reach the agent only as `type base64` lines, one to ten', () => {
    const ok = sftpSchema.safeParse({ host_keys: [`ssh-ed25519 ${ED}`] });
    expect(ok.success).toBe(true);
    for (const host_keys of [
      [],
      [`box ssh-ed25519 ${ED}`],
      [`ssh-ed25519 ${ED}\nx`],
      Array(11).fill(`ssh-ed25519 ${ED}`),
    ])
      expect(sftpSchema.safeParse({ host_keys }).success, JSON.stringify(host_keys)).toBe(false);
    expect(sftpSchema.safeParse({ private_key: 'not a key' }).success).toBe(false);
  });

  it('are written for the name ssh looks the host up by', () => {
    expect(knownHostPattern('box.example', undefined)).toBe('box.example');
    expect(knownHostPattern('box.example', 22)).toBe('box.example');
    expect(knownHostPattern('box.example', 23)).toBe('[box.example]:23');
  });
});
