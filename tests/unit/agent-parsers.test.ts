import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addKey,
  listKeys,
  parseKeyLine,
  removeKey,
} from '../../features/sshkeys/agentAuthorizedKeys';
import {
  DROP_IN,
  dropInText,
  listeningPorts,
  mainConfigText,
  otherDropInText,
  parseSshdT,
  rootLoginAllowed,
} from '../../agent/lib/sshdConfig';
import { hasUserQuota, isRegularUser, parsePasswd, parseQuotaReport } from '../../agent/lib/users';
import { isRotatedLog } from '../../agent/ops/cleanup';
import { phpFpmUnits } from '../../features/services/agent';
import { sshFingerprint } from '../../resources/agent/fingerprint';

const ED = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
const ED2 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKmIJ+3eT0VvlD5e8ZB0fVuqHpdQ4bU0Kx4dF8V3OE3w';

describe('authorized_keys', () => {
  it('computes the fingerprint ssh-keygen prints', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-'));
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'k')]);
    const line = readFileSync(join(dir, 'k.pub'), 'utf8');
    const printed = execFileSync('ssh-keygen', ['-l', '-f', join(dir, 'k.pub')], {
      encoding: 'utf8',
    }).split(' ')[1];
    expect(sshFingerprint(line).fingerprint).toBe(printed);
    expect(parseKeyLine(line)?.fingerprint).toBe(printed);
  });

  it('reads keys after options, skips comments and junk', () => {
    const text = `# mine\n\nfrom="10.0.0.1",no-pty ${ED} me@laptop\nnot a key\n${ED2}\n`;
    expect(listKeys(text)).toEqual([
      { type: 'ssh-ed25519', fingerprint: sshFingerprint(ED).fingerprint, comment: 'me@laptop' },
      { type: 'ssh-ed25519', fingerprint: sshFingerprint(ED2).fingerprint, comment: '' },
    ]);
  });

  it('adds once by fingerprint, whatever the comment, and keeps other lines', () => {
    const first = addKey('# keep\n', `${ED} a`);
    expect(first).toMatchObject({ added: true, text: `# keep\n${ED} a\n` });
    const again = addKey(first.text, `${ED} another comment`);
    expect(again).toMatchObject({ added: false, text: first.text });
    expect(addKey('no newline', ED2).text).toBe(`no newline\n${ED2}\n`);
    expect(() => addKey('', 'ssh-ed25519')).toThrow();
  });

  it('removes every line of a fingerprint', () => {
    const text = `# keep\n${ED} a\n${ED2} b\nno-pty ${ED} c\n`;
    const out = removeKey(text, sshFingerprint(ED).fingerprint);
    expect(out).toEqual({ removed: true, text: `# keep\n${ED2} b\n` });
    expect(removeKey(out.text, 'SHA256:nothing')).toEqual({ removed: false, text: out.text });
  });
});

describe('sshd configuration', () => {
  it('parses sshd -T', () => {
    const t = parseSshdT(
      'port 2222\nport 2222\nport 22\npasswordauthentication no\npermitrootlogin prohibit-password\n',
    );
    expect(t).toEqual({
      ports: [2222, 22],
      password_authentication: false,
      permit_root_login: 'prohibit-password',
      kbd_interactive: false,
    });
    expect(rootLoginAllowed(t.permit_root_login)).toBe(true);
    expect(rootLoginAllowed('no')).toBe(false);
  });

  it('writes the drop-in, refusing what sshd would not take', () => {
    expect(
      dropInText({ port: 2222, password_authentication: false, permit_root_login: 'no' }),
    ).toMatch(
      /^Port 2222\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin no\n$/m,
    );
    expect(
      dropInText({ port: 22, password_authentication: true, permit_root_login: 'yes' }),
    ).not.toContain('KbdInteractive');
    expect(() =>
      dropInText({ port: 0, password_authentication: true, permit_root_login: 'yes' }),
    ).toThrow();
    expect(() =>
      dropInText({ port: 22, password_authentication: true, permit_root_login: 'yes\nX y' }),
    ).toThrow();
  });

  it('makes the drop-in win in sshd_config: Include kept, ports and earlier keys commented', () => {
    const main =
      '# top\nPermitRootLogin yes\nInclude /etc/ssh/sshd_config.d/*.conf\nPort 22\nPasswordAuthentication yes\nMatch User git\n  PasswordAuthentication no\n';
    const out = mainConfigText(main);
    expect(out.split('\n')).toEqual([
      '# top',
      `# stackdeck: PermitRootLogin yes  (set in ${DROP_IN})`,
      'Include /etc/ssh/sshd_config.d/*.conf',
      `# stackdeck: Port 22  (set in ${DROP_IN})`,
      'PasswordAuthentication yes',
      'Match User git',
      '  PasswordAuthentication no',
      '',
    ]);
    expect(mainConfigText(out)).toBe(out);
    // A config without the Include gets it before its first directive.
    expect(mainConfigText('# c\nUsePAM yes\n')).toBe(
      '# c\nInclude /etc/ssh/sshd_config.d/*.conf\nUsePAM yes\n',
    );
    expect(otherDropInText('PasswordAuthentication yes\nUsePAM yes')).toBe(
      `# stackdeck: PasswordAuthentication yes  (set in ${DROP_IN})\nUsePAM yes`,
    );
  });

  it('reads listening ports from ss -Hltn', () => {
    const ss =
      'LISTEN 0 128 0.0.0.0:22 0.0.0.0:*\nLISTEN 0 511 [::]:80 [::]:*\nLISTEN 0 80 127.0.0.1:3306 0.0.0.0:*\n';
    expect([...listeningPorts(ss)].sort((a, b) => a - b)).toEqual([22, 80, 3306]);
  });
});

describe('users, quotas, services, logs', () => {
  it('keeps regular users only', () => {
    const users = parsePasswd(
      'root:x:0:0:root:/root:/bin/bash\nwww-data:x:33:33::/var/www:/usr/sbin/nologin\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\nalice:x:1001:1001::/home/alice:/bin/bash\nbroken\n',
    );
    expect(users.map((u) => u.name)).toEqual(['root', 'www-data', 'nobody', 'alice']);
    expect(users.filter(isRegularUser).map((u) => u.name)).toEqual(['alice']);
  });

  it('reads quota -w and mount options', () => {
    const report = `Disk quotas for user quser (uid 1001):
     Filesystem  blocks   quota   limit   grace   files   quota   limit   grace
     /dev/loop3   20480*  10240   12288   6days       2       0       0
`;
    expect(parseQuotaReport(report)).toEqual({ blocks: 20480, soft: 10240, hard: 12288 });
    expect(parseQuotaReport('Disk quotas for user x (uid 1002): none\n')).toBeUndefined();
    expect(hasUserQuota('rw,relatime,usrquota,grpquota')).toBe(true);
    expect(hasUserQuota('rw,usrjquota=aquota.user,jqfmt=vfsv1')).toBe(true);
    expect(hasUserQuota('rw,relatime,grpquota')).toBe(false);
  });

  it('finds the PHP-FPM units in version order', () => {
    expect(
      phpFpmUnits(['php8.3-fpm.service', 'nginx', 'php7.4-fpm', 'php8.10-fpm', 'php8.3-fpm']),
    ).toEqual(['php7.4-fpm', 'php8.3-fpm', 'php8.10-fpm']);
  });

  it('tells rotated logs from live ones', () => {
    for (const name of ['syslog.1', 'syslog.2.gz', 'auth.log.4.gz', 'dpkg.log.old', 'x-20240101'])
      expect(isRotatedLog(name), name).toBe(true);
    for (const name of ['syslog', 'auth.log', 'nginx', 'lastlog', 'wtmp'])
      expect(isRotatedLog(name), name).toBe(false);
  });
});
