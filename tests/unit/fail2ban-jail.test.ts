import { describe, expect, it } from 'vitest';
import {
  ALL_KINDS,
  bannedByJail,
  jailsIn,
  parseJails,
  renderJails,
} from '../../features/fail2ban/jail';
import { DEFAULT_LIMIT } from '../../features/fail2ban/resource';

const env = { systemd: false, sshPorts: [2222], ignore: ['127.0.0.1/32', '::1', '203.0.113.9'] };

describe('the panel jail file', () => {
  it('reads back what it wrote, an off kind keeping its times', () => {
    const limits = parseJails(null);
    limits['ssh-max'] = { value: 5, ban_time: 600, find_time: 300 };
    limits['pop-max'] = { value: 0, ban_time: 120, find_time: 60 };
    expect(parseJails(renderJails(limits, env))).toEqual(limits);
  });

  it('is all off with the default times when absent or edited out of range', () => {
    for (const kind of ALL_KINDS) expect(parseJails(null)[kind]).toEqual(DEFAULT_LIMIT);
    const hand = '[stackdeck-ssh]\nenabled = true\nmaxretry = 5000\nbantime = 60\nfindtime = 60\n';
    expect(parseJails(hand)['ssh-max']).toEqual(DEFAULT_LIMIT);
  });

  it("bans SSH on sshd's own ports, polls syslog without a journal, ignores only what is given", () => {
    const limits = parseJails(null);
    limits['ssh-max'] = { value: 5, ban_time: 600, find_time: 300 };
    const text = renderJails(limits, env);
    expect(text).toContain(
      [
        '[stackdeck-ssh]',
        'enabled = true',
        'filter = sshd',
        'port = 2222',
        'maxretry = 5',
        'findtime = 300',
        'bantime = 600',
        'backend = polling',
        'logpath = /var/log/auth.log',
        'banaction = nftables[type=multiport]',
        'ignoreself = true',
        'ignoreip = 127.0.0.1/32 ::1 203.0.113.9',
      ].join('\n'),
    );
    // Debian's own sshd jail is off; no [DEFAULT] of other jails is changed.
    expect(text).toContain('[sshd]\nenabled = false');
    expect(text).not.toContain('[DEFAULT]');
    expect(text).not.toContain('stackdeck table');
  });

  it('reads the journal by process name on a systemd server', () => {
    const text = renderJails(parseJails(null), { ...env, systemd: true });
    expect(text).toContain("filter = sshd[journalmatch='_COMM=sshd']");
    expect(text).toContain('backend = systemd');
    expect(text).not.toContain('logpath');
  });

  it('gives IMAP and POP3 their own ports on the dovecot filter', () => {
    const text = renderJails(parseJails(null), env);
    expect(text).toMatch(/\[stackdeck-imap\]\nenabled = false\nfilter = dovecot\nport = 143,993/);
    expect(text).toMatch(/\[stackdeck-pop3\]\nenabled = false\nfilter = dovecot\nport = 110,995/);
    expect(text).toMatch(/\[stackdeck-smtp\]\nenabled = false\nfilter = postfix\[mode=auth\]/);
  });
});

describe("fail2ban-client's answers", () => {
  it('lists jails and banned addresses', () => {
    expect(
      jailsIn('Status\n|- Number of jail:\t2\n`- Jail list:\tstackdeck-ssh, stackdeck-ftp\n'),
    ).toEqual(['stackdeck-ssh', 'stackdeck-ftp']);
    expect(jailsIn('Status\n|- Number of jail:\t0\n`- Jail list:\t\n')).toEqual([]);
  });

  it("reads every running jail's bans from `banned`, and refuses any other text", () => {
    const text = "[{'stackdeck-ftp': ['127.0.0.8', '2001:db8::5']}, {'stackdeck-ssh': []}]\n";
    expect(bannedByJail(text)).toEqual(
      new Map([
        ['stackdeck-ftp', ['127.0.0.8', '2001:db8::5']],
        ['stackdeck-ssh', []],
      ]),
    );
    expect(bannedByJail('[]\n')).toEqual(new Map());
    expect(bannedByJail('Shutdown successful')).toBeNull();
    expect(bannedByJail("[{'stackdeck-ssh': []}, 'something else']")).toBeNull();
  });
});
