import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * Attempt limits on a real server: the panel sets the SSH limit, the agent writes its jail,
 * checks it with fail2ban and starts fail2ban, and real failed SSH logins (OpenSSH's client,
 * from loopback sources inside the sandbox) get their source banned by fail2ban's nftables
 * table while another source still reaches sshd; likewise failed FTP logins (curl against
 * Pure-FTPd). A sandbox has no journal: rsyslog writes /var/log/auth.log and /var/log/syslog
 * (Pure-FTPd's ftp facility), which the agent's jails poll.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const BANNED = '127.0.0.5';
const IGNORED = '127.0.0.7';
const OTHER = '127.0.0.6';
const FTP_BANNED = '127.0.0.8';
const FTP_OTHER = '127.0.0.9';
const ALICE_PASSWORD = 'the right password 1';
const path = (kind: string) => `csf/${kind}/servers/${server.id}/users/${panel.uid}`;

async function sh(script: string): Promise<string> {
  return (await sb.execOk(['bash', '-c', script])).stdout.trim();
}

/** One failed password login from `source`: the real client, one password prompt. */
async function failedLogin(source: string) {
  return sb.exec(
    [
      'ssh',
      '-b',
      source,
      '-o',
      'BatchMode=no',
      '-o',
      'NumberOfPasswordPrompts=1',
      '-o',
      'PreferredAuthentications=password',
      '-o',
      'PubkeyAuthentication=no',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'ConnectTimeout=5',
      'alice@127.0.0.1',
      'true',
    ],
    {
      env: { SSH_ASKPASS: '/usr/local/bin/wrong-password', SSH_ASKPASS_REQUIRE: 'force' },
      timeoutMs: 20_000,
    },
  );
}

/** The server's greeting on `port` reaches `source` (the TCP connection is accepted), or not. */
async function greets(source: string, port = 22, greeting = 'SSH-2.0-'): Promise<boolean> {
  const res = await sb.exec([
    'socat',
    '-T3',
    '-u',
    `TCP:127.0.0.1:${port},bind=${source},connect-timeout=3`,
    'STDOUT',
  ]);
  return res.stdout.startsWith(greeting);
}

/** An FTP login (a listing) from `source`; curl's code: 67 = login refused, 7 = no connection. */
async function ftpLogin(source: string, password = 'not-the-password') {
  return sb.exec(
    [
      'curl',
      '-sS',
      '--max-time',
      '20',
      '--interface',
      source,
      '--user',
      `alice:${password}`,
      'ftp://127.0.0.1/',
    ],
    { timeoutMs: 30_000 },
  );
}
const ftpGreets = (source: string) => greets(source, 21, '220');

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'fail2ban', ['ssh', 'pure-ftpd']));
  // Debian 12's rsyslog ships no init.d script (systemd unit only): the daemon itself, which
  // forks into the background and writes /var/log/auth.log.
  await sh('rsyslogd && sleep 1 && logger -p auth.info stackdeck-test-start');
  // A real account with a wrong password: sshd logs one "Failed password" per login. (For a
  // name that does not exist, fail2ban's sshd filter also counts the "Invalid user" line, so
  // such a source is banned after fewer logins.)
  await sh(`useradd -m -s /bin/bash alice && echo 'alice:${ALICE_PASSWORD}' | chpasswd`);
  await sh(
    "printf '#!/bin/sh\\necho not-the-password\\n' >/usr/local/bin/wrong-password && chmod 755 /usr/local/bin/wrong-password",
  );
}, 240_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('the SSH attempt limit', () => {
  it('is off before the panel sets it, and fail2ban is not running', async () => {
    const res = await panel.api('GET', path('ssh-max'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'ssh-max', value: 0, active: false, banned: [] });
    expect((await sb.exec(['fail2ban-client', 'ping'])).code).not.toBe(0);
  });

  it('set to 5: the jail is written, fail2ban started, and reads back from fail2ban', async () => {
    const res = await panel.api('PATCH', path('ssh-max'), { value: 5, ban_time: 600 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'ssh-max', value: 5, ban_time: 600, active: true });
    const jail = await sh('cat /etc/fail2ban/jail.d/stackdeck.conf');
    expect(jail).toContain('[stackdeck-ssh]\nenabled = true');
    expect(jail).toContain('backend = polling\nlogpath = /var/log/auth.log');
    expect(jail).toContain('ignoreip = 127.0.0.1/32 ::1');
    expect(await sh('fail2ban-client get stackdeck-ssh maxretry')).toBe('5');
    // Debian's own sshd jail is off; the other kinds stay off.
    expect(await sh('fail2ban-client status | grep "Jail list"')).toMatch(
      /Jail list:\s+stackdeck-ssh$/,
    );
    const again = await panel.api('GET', path('ssh-max'));
    expect(again.json()).toMatchObject({ value: 5, ban_time: 600, find_time: 3600, active: true });
    const ftp = await panel.api('GET', path('max-attempts'));
    expect(ftp.json()).toMatchObject({ kind: 'max-attempts', value: 0, active: false });
  });

  it('bans a source after five failed logins; another source still reaches sshd', async () => {
    expect(await greets(BANNED)).toBe(true);
    for (let i = 1; i <= 5; i++) {
      const res = await failedLogin(BANNED);
      expect(`${i}: ${res.stderr}`).toMatch(new RegExp(`^${i}: .*Permission denied`, 's'));
    }
    await sb.waitFor(
      async () =>
        (await sb.exec(['fail2ban-client', 'status', 'stackdeck-ssh'])).stdout.includes(BANNED),
      60_000, // fail2ban polls the log: slow on a loaded machine
    );
    const sixth = await failedLogin(BANNED);
    expect(sixth.code).not.toBe(0);
    expect(sixth.stderr).toMatch(/Connection refused/);
    expect(await greets(BANNED)).toBe(false);
    expect(await greets(OTHER)).toBe(true);
    expect((await failedLogin(OTHER)).stderr).toMatch(/Permission denied/);
    // The ban lives in fail2ban's own table; the panel shows it.
    expect(await sh('nft list table inet f2b-table')).toContain(BANNED);
    const res = await panel.api('GET', path('ssh-max'));
    expect(res.json()).toMatchObject({ active: true, banned: [BANNED] });
  });

  it("never bans an address of the firewall's ignore list (CSF's csf.ignore)", async () => {
    const res = await panel.api('POST', path('csf_ignore'), { ip: IGNORED });
    expect(res.statusCode, res.body).toBe(201);
    expect(await sh('grep -m1 ^ignoreip /etc/fail2ban/jail.d/stackdeck.conf')).toContain(IGNORED);
    for (let i = 1; i <= 6; i++)
      expect((await failedLogin(IGNORED)).stderr).toMatch(/Permission denied/);
    // An ignored source leaves no count to wait for: give the polling backend (1 s) time to
    // have read every line before asking.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(await greets(IGNORED)).toBe(true);
    const status = await sb.exec(['fail2ban-client', 'status', 'stackdeck-ssh']);
    expect(status.stdout).not.toContain(IGNORED);
  });

  it('turned off (0): the jail stops and the banned source gets in again', async () => {
    const res = await panel.api('PATCH', path('ssh-max'), { value: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ value: 0, ban_time: 600, active: false, banned: [] });
    expect(await greets(BANNED)).toBe(true);
    expect(await sh('fail2ban-client status | grep "Jail list"')).toMatch(/Jail list:\s*$/);
  });
});

describe('the FTP attempt limit (Pure-FTPd)', () => {
  it('set to 3: the FTP jail runs and polls syslog', async () => {
    const res = await panel.api('PATCH', path('max-attempts'), { value: 3, ban_time: 600 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'max-attempts', value: 3, active: true });
    const jail = await sh('cat /etc/fail2ban/jail.d/stackdeck.conf');
    expect(jail).toContain('[stackdeck-ftp]\nenabled = true\nfilter = pure-ftpd\nport = 21,990');
    expect(jail).toContain('backend = polling\nlogpath = /var/log/syslog');
    expect(await sh('fail2ban-client get stackdeck-ftp maxretry')).toBe('3');
  });

  it('bans a source after three failed logins; another source still logs in', async () => {
    expect(await ftpGreets(FTP_BANNED)).toBe(true);
    for (let i = 1; i <= 3; i++) {
      const res = await ftpLogin(FTP_BANNED);
      expect(`${i}: ${res.code} ${res.stderr}`).toMatch(new RegExp(`^${i}: 67 .*530`, 's'));
    }
    await sb.waitFor(
      async () =>
        (await sb.exec(['fail2ban-client', 'status', 'stackdeck-ftp'])).stdout.includes(FTP_BANNED),
      60_000,
    );
    // Pure-FTPd's own line, as fail2ban's filter reads it from syslog.
    expect(
      await sh('grep -c "(?@127.0.0.8) \\[WARNING\\] Authentication failed" /var/log/syslog'),
    ).toBe('3');
    const fourth = await ftpLogin(FTP_BANNED);
    expect(fourth.code, fourth.stderr).toBe(7);
    expect(await ftpGreets(FTP_BANNED)).toBe(false);
    expect(await ftpGreets(FTP_OTHER)).toBe(true);
    const other = await ftpLogin(FTP_OTHER, ALICE_PASSWORD);
    expect(other.code, other.stderr).toBe(0);
    // Only FTP's ports: the banned source still reaches sshd.
    expect(await greets(FTP_BANNED)).toBe(true);
    const all = await Promise.all(
      ['max-attempts', 'ssh-max'].map(async (kind) => (await panel.api('GET', path(kind))).json()),
    );
    expect(all[0]).toMatchObject({ active: true, banned: [FTP_BANNED] });
    expect(all[1]).toMatchObject({ active: false, banned: [] });
  }, 120_000);

  it('turned off (0): the banned source connects again', async () => {
    const res = await panel.api('PATCH', path('max-attempts'), { value: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ value: 0, active: false, banned: [] });
    expect(await ftpGreets(FTP_BANNED)).toBe(true);
  });
});
