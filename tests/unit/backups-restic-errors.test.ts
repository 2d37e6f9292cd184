import { describe, expect, it } from 'vitest';
import { classifyExit, lastWords } from '../../features/backups/agentResticErrors';

// stderr of restic 0.14.0 (Debian), recorded on this machine for each cause.
const STDERR = {
  wrongPassword: 'Fatal: wrong password or no key found\n',
  noRepository:
    'Fatal: unable to open config file: stat /tmp/rt/none/config: no such file or directory\nIs there a repository at the following location?\n/tmp/rt/none\n',
  restRefused:
    'Fatal: unable to open config file: client.Head: Head "http://127.0.0.1:1/r/config": dial tcp 127.0.0.1:1: connect: connection refused\nIs there a repository at the following location?\nrest:http://127.0.0.1:1/r/\n',
  s3NoHost:
    'Fatal: unable to open config file: Stat: Get "https://nonexistent.invalid/bucket/?location=": dial tcp: lookup nonexistent.invalid on 10.255.255.53:53: no such host\nIs there a repository at the following location?\ns3:https://nonexistent.invalid/bucket\n',
  sftpRefused:
    'subprocess ssh: ssh: connect to host 127.0.0.1 port 1: Connection refused\nFatal: unable to open repository at sftp:nobody@127.0.0.1:/tmp/x: unable to start the sftp session, error: EOF\n',
  // Not recorded (no sshd on this host): OpenSSH's words for a refused key, as ssh prints them.
  sftpDenied:
    'subprocess ssh: nobody@127.0.0.1: Permission denied (publickey).\nFatal: unable to open repository at sftp:nobody@127.0.0.1:/tmp/x: unable to start the sftp session, error: EOF\n',
  // OpenSSH's words when the host's key is not a pinned one (StrictHostKeyChecking=yes).
  sftpHostKey:
    'subprocess ssh: Host key for [127.0.0.1]:2222 has changed and you have requested strict checking.\r\nHost key verification failed.\r\nFatal: unable to open repository at sftp:nobody@127.0.0.1:/tmp/x: unable to start the sftp session, error: EOF\n',
  locked:
    'unable to create lock in backend: repository is already locked by PID 8436 on vm by root (UID 0, GID 0)\nlock was created at 2026-11-28 02:37:50 (2.992835198s ago)\nstorage ID 6d2d4bb0\nthe `unlock` command can be used to remove stale locks\n',
  diskFull:
    'Fatal: unable to save snapshot: write /tmp/rt/full/repo/data/85/85f0bdfd0a2075aeaf9d359d36138345d8a6f811d18950fb1bc08fa2e008a7b2-tmp-3892739860: no space left on device',
  partial:
    '{"message_type":"error","error":{"Op":"open","Path":"b","Err":13},"during":"archival","item":"/tmp/rt/src/b"}\nWarning: at least one source file could not be read\n',
};

const kind = (code: number | null, stderr: string, signal: NodeJS.Signals | null = null) =>
  classifyExit({ code, signal, stderr })?.kind;

describe('restic 0.14 failures', () => {
  it('are told apart by their stderr (0.14 exits 1 for all of them)', () => {
    expect(kind(1, STDERR.wrongPassword)).toBe('wrong_password');
    expect(kind(1, STDERR.noRepository)).toBe('no_repository');
    expect(kind(1, STDERR.locked)).toBe('locked');
    expect(kind(1, STDERR.diskFull)).toBe('disk_full');
    // An unreachable target also asks "Is there a repository": it is unreachable, not missing.
    expect(kind(1, STDERR.restRefused)).toBe('unreachable');
    expect(kind(1, STDERR.s3NoHost)).toBe('unreachable');
    expect(kind(1, STDERR.sftpRefused)).toBe('unreachable');
    expect(kind(1, STDERR.sftpDenied)).toBe('denied');
    expect(classifyExit({ code: 1, signal: null, stderr: STDERR.sftpHostKey })).toMatchObject({
      kind: 'unreachable',
      message: expect.stringMatching(/^The backup storage's host key is not the one pinned/),
    });
    expect(kind(1, 'Fatal: something new\n')).toBe('failed');
    expect(kind(null, '', 'SIGKILL')).toBe('interrupted');
    expect(kind(0, '')).toBeUndefined();
  });

  it('speak words a user understands, with restic own last words aside', () => {
    const wrong = classifyExit({ code: 1, signal: null, stderr: STDERR.wrongPassword })!;
    expect(wrong.message).toMatch(/password does not open/);
    expect(wrong.detail).toBe('Fatal: wrong password or no key found');
    const full = classifyExit({ code: 1, signal: null, stderr: STDERR.diskFull })!;
    expect(full.message).toBe('The backup storage is full.');
    expect(classifyExit({ code: 1, signal: null, stderr: STDERR.restRefused })!.message).toMatch(
      /cannot be reached/,
    );
  });

  it('exit 3 is partial, naming what could not be read', () => {
    const p = classifyExit({ code: 3, signal: null, stderr: STDERR.partial }, [
      { item: '/srv/app/b', error: 'permission denied' },
    ])!;
    expect(p.kind).toBe('partial');
    expect(p.message).toBe(
      'One file could not be read and is missing from this backup: /srv/app/b (permission denied).',
    );
    const many = classifyExit(
      { code: 3, signal: null, stderr: '' },
      ['a', 'b', 'c', 'd', 'e'].map((f) => ({ item: f, error: 'permission denied' })),
    )!;
    expect(many.message).toMatch(/^5 files could not be read and are missing .* and 2 more\.$/);
  });

  it('last words skip JSON lines and prefer the Fatal one', () => {
    expect(lastWords(STDERR.noRepository)).toBe(
      'Fatal: unable to open config file: stat /tmp/rt/none/config: no such file or directory',
    );
    expect(lastWords(STDERR.partial)).toBe('Warning: at least one source file could not be read');
  });
});
