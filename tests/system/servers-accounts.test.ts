import { beforeAll, describe, expect, it } from 'vitest';
import { kernelHasQuotaFormat } from '../../scripts/sandbox/index';
import { activity } from './harness/panel';
import { usePanelSandbox } from './harness/panelSandbox';

/**
 * System users, SSH keys and SSH settings of a real server: the panel's API drives the real
 * agent in a sandbox (installed with the panel's own install command), and real clients inside
 * check the outcome: id, getent, ssh with a password (SSH_ASKPASS) and with a key.
 */
let sshPort = 22;

const PASSWORD = 'first-Password-1234';
const PASSWORD2 = 'second-Password-5678';
const KEY = '/root/stackdeck-test-key';

const QUOTAS = kernelHasQuotaFormat() !== false;

// /home with quotas where this kernel can (CONFIG_QFMT_V2); a plain /home otherwise.
const sys = usePanelSandbox('accounts', ['ssh'], {
  quota: QUOTAS,
  homeSizeMb: QUOTAS ? 256 : undefined,
});
const { sh } = sys;

const path = (p: string) => `${p}/servers/${sys.server.id}/users/${sys.panel.uid}`;

const SSH_BASE = [
  '-o',
  'StrictHostKeyChecking=no',
  '-o',
  'UserKnownHostsFile=/dev/null',
  '-o',
  'ConnectTimeout=5',
  '-o',
  'LogLevel=ERROR',
];

/** ssh with a password: OpenSSH's own SSH_ASKPASS, forced, answers the prompt (no sshpass). */
function sshPassword(user: string, password: string, port = sshPort) {
  return sys.sb.exec(
    [
      'ssh',
      ...SSH_BASE,
      '-o',
      'PreferredAuthentications=password,keyboard-interactive',
      '-o',
      'PubkeyAuthentication=no',
      '-o',
      'NumberOfPasswordPrompts=1',
      '-p',
      String(port),
      `${user}@127.0.0.1`,
      'id -un',
    ],
    {
      env: {
        SSH_ASKPASS: '/root/stackdeck-askpass',
        SSH_ASKPASS_REQUIRE: 'force',
        DISPLAY: ':0',
        TEST_PASSWORD: password,
      },
      timeoutMs: 20_000,
    },
  );
}

function sshKey(user: string, port = sshPort) {
  return sys.sb.exec(
    [
      'ssh',
      ...SSH_BASE,
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'PasswordAuthentication=no',
      '-i',
      KEY,
      '-p',
      String(port),
      `${user}@127.0.0.1`,
      'id -un',
    ],
    { timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  await sh(
    `printf '#!/bin/sh\\nprintf "%%s\\\\n" "$TEST_PASSWORD"\\n' >/root/stackdeck-askpass && chmod 700 /root/stackdeck-askpass && ssh-keygen -q -t ed25519 -N '' -C tester -f ${KEY}`,
  );
});

describe('system users', () => {
  let aliceId: number;

  it('leaves root’s password alone when the owner did not ask for one at connect', async () => {
    const rootHash = await sh('getent shadow root | cut -d: -f2');
    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'root',
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(await sh('getent shadow root | cut -d: -f2')).toBe(rootHash);
  });

  it('sets root’s password on the first opening when asked for, and never lists root', async () => {
    // What the Connect page's "Set a root password" box records on the server.
    await sys.panel.t.app.db
      .updateTable('servers')
      .set({ root_password: 1 })
      .where('id', '=', sys.server.id)
      .execute();
    const rootHash = await sh('getent shadow root | cut -d: -f2');
    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'root',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(await sh('passwd -S root | cut -d" " -f2')).toBe('P');
    // Debian keeps root's SSH login to keys (prohibit-password): the new hash is checked with
    // libcrypt instead.
    const hash = await sh('getent shadow root | cut -d: -f2');
    expect(hash).not.toBe(rootHash);
    const check = await sys.sb.exec(
      [
        'python3',
        '-W',
        'ignore',
        '-c',
        'import crypt,sys; h=sys.argv[1]; print(crypt.crypt(sys.stdin.read(), h) == h)',
        hash,
      ],
      { input: PASSWORD },
    );
    expect(check.stdout.trim()).toBe('True');
  });

  it('checks a name with ?dry=true and creates the user on the server', async () => {
    const dry = await sys.panel.api('POST', `${path('sysusers')}?dry=true`, {
      user_name: 'alice',
      password: PASSWORD,
    });
    expect(dry.json()).toEqual({ available: true, reason: null });

    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'alice',
      password: PASSWORD,
      quota_hard: 0,
      quota_soft: 0,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user_name: 'alice', status: 'active', error: null });
    aliceId = (res.json() as { id: number }).id;

    const id = await sh('id alice');
    expect(id).toMatch(/^uid=(\d+)\(alice\) gid=\d+\(alice\) groups=\d+\(alice\)$/);
    expect(Number(/uid=(\d+)/.exec(id)![1])).toBeGreaterThanOrEqual(1000);
    const passwd = (await sh('getent passwd alice')).split(':');
    expect(passwd.slice(5)).toEqual(['/home/alice', '/bin/bash']);
    expect(await sh('stat -c %U /home/alice')).toBe('alice');

    const list = await sys.panel.api('GET', path('sysusers'));
    const names = (list.json() as { data: { user_name: string }[] }).data.map((u) => u.user_name);
    expect(names).toEqual(['alice']);
    // The server's own list (the sync read) shows regular users only: no root, no daemons.
    const live = await sys.panel.t.app.agents.call(sys.server.id, 'sysusers.list', {});
    expect(live.map((u) => u.user_name)).toContain('alice');
    expect(live.every((u) => u.uid >= 1000 && u.user_name !== 'nobody')).toBe(true);

    const again = await sys.panel.api('POST', `${path('sysusers')}?dry=true`, {
      user_name: 'alice',
      password: PASSWORD,
    });
    expect(again.json()).toMatchObject({ available: false });
  });

  it('refuses reserved names (400, validation), a uid 0 account (422, the server) and anything but bash', async () => {
    // The API's validation answers 400 with the field's message, as everywhere in api/v1.
    for (const user_name of ['www-data', 'sudo', 'root', 'mysql', 'Bad Name']) {
      const res = await sys.panel.api('POST', path('sysusers'), { user_name, password: PASSWORD });
      expect(res.statusCode, user_name).toBe(400);
    }
    // An account someone made with uid 0 by hand: the check says so, create is refused.
    await sh('useradd -o -u 0 -M -s /bin/bash toor');
    const dry = await sys.panel.api('POST', `${path('sysusers')}?dry=true`, {
      user_name: 'toor',
      password: PASSWORD,
    });
    expect(dry.json()).toEqual({ available: false, reason: 'toor has uid 0' });
    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'toor',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'toor has uid 0' });
    expect(await sh('getent passwd toor | cut -d: -f3')).toBe('0');
    // A shell, a uid or groups in the body never reach useradd: the user gets bash, its own
    // uid and no other group.
    const sneaky = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'bob',
      password: PASSWORD,
      shell: '/bin/sh',
      uid: 0,
      groups: ['sudo'],
    });
    expect([201, 422]).toContain(sneaky.statusCode);
    if (sneaky.statusCode === 201) {
      expect(await sh('getent passwd bob | cut -d: -f3,7')).toMatch(/^1\d{3}:\/bin\/bash$/);
      expect(await sh('id -Gn bob')).toBe('bob');
      const bobId = (sneaky.json() as { id: number }).id;
      expect((await sys.panel.api('DELETE', path(`sysusers/${bobId}`))).statusCode).toBe(200);
    }
  });

  it('sets quotas where the home filesystem has them, and reports null where not', async () => {
    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'quser',
      password: PASSWORD,
      quota_hard: 100,
      quota_soft: 80,
    });
    expect(res.statusCode).toBe(201);
    const live = await sys.panel.t.app.agents.call(sys.server.id, 'sysusers.list', {});
    const quser = live.find((u) => u.user_name === 'quser');
    if (QUOTAS) {
      expect(quser).toMatchObject({ quota_hard: 100, quota_soft: 80 });
      expect(await sh('quota -w -u quser')).toMatch(/\s81920\s+102400\s/);
    } else {
      expect(quser).toMatchObject({ quota_hard: null, quota_soft: null });
    }
    const id = (res.json() as { id: number }).id;
    expect((await sys.panel.api('DELETE', path(`sysusers/${id}`))).statusCode).toBe(200);
    expect((await sys.sb.exec(['id', 'quser'])).code).not.toBe(0);
  });

  it('logs in over SSH with its password; a changed password replaces it', async () => {
    expect((await sshPassword('alice', PASSWORD)).stdout.trim()).toBe('alice');
    const res = await sys.panel.api('PUT', path(`sysusers/${aliceId}`), { password: PASSWORD2 });
    expect(res.statusCode).toBe(200);
    expect((await sshPassword('alice', PASSWORD2)).stdout.trim()).toBe('alice');
    const old = await sshPassword('alice', PASSWORD);
    expect(old.code).not.toBe(0);
    expect(old.stderr).toMatch(/Permission denied/);
  });

  it('makes and reads the deployment key as the user', async () => {
    const made = await sys.panel.api('GET', `${path(`sysusers/${aliceId}`)}?rsa=create`);
    expect(made.statusCode).toBe(200);
    const key = (made.json() as { public_key: string }).public_key;
    expect(key).toMatch(/^ssh-ed25519 AAAA\S+ alice@/);
    expect(await sh('stat -c "%U %a" /home/alice/.ssh /home/alice/.ssh/id_ed25519')).toBe(
      'alice 700\nalice 600',
    );
    const read = await sys.panel.api('GET', `${path(`sysusers/${aliceId}`)}?rsa=get`);
    expect(read.json()).toEqual({ public_key: key });
  });
});

describe('SSH keys', () => {
  let keyId: number;

  it('adds a key to the user’s authorized_keys: key login works, duplicates are refused', async () => {
    expect((await sshKey('alice')).code).not.toBe(0);
    const pub = await sh(`cat ${KEY}.pub`);
    const res = await sys.panel.api('POST', path('pubkeys'), {
      label: 'laptop',
      user_name: 'alice',
      key: pub,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'active', type: 'ssh-ed25519' });
    keyId = (res.json() as { id: number }).id;
    const fingerprint = (res.json() as { fingerprint: string }).fingerprint;
    expect(await sh(`ssh-keygen -lf ${KEY}.pub | cut -d" " -f2`)).toBe(fingerprint);

    expect((await sshKey('alice')).stdout.trim()).toBe('alice');
    expect(await sh('stat -c "%U %a" /home/alice/.ssh /home/alice/.ssh/authorized_keys')).toBe(
      'alice 700\nalice 600',
    );
    const dup = await sys.panel.api('POST', path('pubkeys'), {
      label: 'again',
      user_name: 'alice',
      key: `${pub.split(' ').slice(0, 2).join(' ')} other comment`,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ message: 'This key is there already' });
    expect(await sh('grep -c ssh-ed25519 /home/alice/.ssh/authorized_keys')).toBe('1');
    // The agent de-duplicates too, whatever the panel's records say.
    await sys.panel.t.app.agents.call(sys.server.id, 'pubkeys.add', {
      user_name: 'alice',
      key: pub,
    });
    expect(await sh('grep -c ssh-ed25519 /home/alice/.ssh/authorized_keys')).toBe('1');
  });

  it('adds a key to root’s own authorized_keys', async () => {
    const pub = await sh(`cat ${KEY}.pub`);
    const res = await sys.panel.api('POST', path('pubkeys'), {
      label: 'root laptop',
      user_name: 'root',
      key: pub,
    });
    expect(res.statusCode).toBe(201);
    expect(await sh('stat -c "%U %a" /root/.ssh/authorized_keys')).toBe('root 600');
    expect((await sshKey('root')).stdout.trim()).toBe('root');
    const id = (res.json() as { id: number }).id;
    expect((await sys.panel.api('DELETE', path(`pubkeys/${id}`))).statusCode).toBe(200);
    expect((await sshKey('root')).code).not.toBe(0);
  });

  it('lands all of 20 keys added in parallel to one user (the agent serializes the file)', async () => {
    const made = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'many',
      password: PASSWORD,
    });
    expect(made.statusCode).toBe(201);
    await sh(
      "for i in $(seq 1 20); do ssh-keygen -q -t ed25519 -N '' -C many-$i -f /root/many-$i; done",
    );
    const keys = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sh(`cat /root/many-${i + 1}.pub`)),
    );
    const added = await Promise.all(
      keys.map((key, i) =>
        sys.panel.api('POST', path('pubkeys'), { label: `many ${i + 1}`, user_name: 'many', key }),
      ),
    );
    expect(added.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const fingerprints = await sh(
      'ssh-keygen -lf /home/many/.ssh/authorized_keys | cut -d" " -f2 | sort',
    );
    const expected = added.map((r) => (r.json() as { fingerprint: string }).fingerprint).sort();
    expect(fingerprints.split('\n')).toEqual(expected);
    const login = await sys.sb.exec(
      [
        'ssh',
        ...SSH_BASE,
        '-o',
        'BatchMode=yes',
        '-o',
        'IdentitiesOnly=yes',
        '-o',
        'PasswordAuthentication=no',
        '-i',
        '/root/many-20',
        '-p',
        String(sshPort),
        'many@127.0.0.1',
        'id -un',
      ],
      { timeoutMs: 20_000 },
    );
    expect(login.stdout.trim()).toBe('many');
    const del = await sys.panel.api(
      'DELETE',
      path(`sysusers/${(made.json() as { id: number }).id}`),
    );
    expect(del.statusCode).toBe(200);
  });

  it('refuses an authorized_keys that is a symbolic link, and writes nothing through it', async () => {
    const shadow = await sh('sha256sum /etc/shadow');
    await sys.sb.execOk(['ln', '-sf', '/etc/shadow', '/home/alice/.ssh/authorized_keys.lnk']);
    await sh(
      'cd /home/alice/.ssh && cp authorized_keys /root/ak.saved && mv -f authorized_keys.lnk authorized_keys',
    );
    await sh('chown -h alice:alice /home/alice/.ssh/authorized_keys');
    const other = await sh(
      `ssh-keygen -q -t ed25519 -N '' -f /root/other-key && cat /root/other-key.pub`,
    );
    const res = await sys.panel.api('POST', path('pubkeys'), {
      label: 'other',
      user_name: 'alice',
      key: other,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.stringMatching(/symbolic link/) });
    expect(await sh('sha256sum /etc/shadow')).toBe(shadow);
    await sh(
      'cp /root/ak.saved /home/alice/.ssh/authorized_keys.new && chown alice:alice /home/alice/.ssh/authorized_keys.new && chmod 600 /home/alice/.ssh/authorized_keys.new && mv -f /home/alice/.ssh/authorized_keys.new /home/alice/.ssh/authorized_keys',
    );
    const failedRow = (await sys.panel.api('GET', path('pubkeys'))).json() as {
      data: { id: number; status: string }[];
    };
    for (const row of failedRow.data.filter((r) => r.status === 'failed'))
      await sys.panel.api('DELETE', path(`pubkeys/${row.id}`));
  });

  it('removes the key by fingerprint: key login stops working', async () => {
    const res = await sys.panel.api('DELETE', path(`pubkeys/${keyId}`));
    expect(res.statusCode).toBe(200);
    expect(await sh('grep -c ssh-ed25519 /home/alice/.ssh/authorized_keys || true')).toBe('0');
    expect((await sshKey('alice')).code).not.toBe(0);
    // Back for the SSH settings below.
    const again = await sys.panel.api('POST', path('pubkeys'), {
      label: 'laptop',
      user_name: 'alice',
      key: await sh(`cat ${KEY}.pub`),
    });
    expect(again.statusCode).toBe(201);
  });
});

describe('SSH settings', () => {
  it('reads the settings sshd really uses', async () => {
    const res = await sys.panel.api('GET', path('sshconfig'));
    expect(res.json()).toEqual({
      port: 22,
      password_authentication: true,
      permit_root_login: true,
    });
  });

  it('moves sshd to a new port, without passwords or root: sshd really does so', async () => {
    const res = await sys.panel.api('PATCH', path('sshconfig'), {
      port: 2222,
      password_authentication: false,
      permit_root_login: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      port: 2222,
      password_authentication: false,
      permit_root_login: false,
    });
    sshPort = 2222;
    const ports = await sh("ss -Hltn | awk '{print $4}'");
    expect(ports).toMatch(/:2222$/m);
    expect(ports).not.toMatch(/:22$/m);
    expect((await sshKey('alice')).stdout.trim()).toBe('alice');
    const pw = await sshPassword('alice', PASSWORD2);
    expect(pw.code).not.toBe(0);
    expect(pw.stderr).toMatch(/Permission denied \(publickey\)/);
    expect((await sshPassword('root', PASSWORD)).code).not.toBe(0);
    expect(await sh('sshd -T | grep -E "^(port|passwordauthentication|permitrootlogin) "')).toBe(
      'port 2222\npermitrootlogin no\npasswordauthentication no',
    );
  });

  it('refuses a port in use and a config sshd rejects; sshd keeps running as it was', async () => {
    await sh(
      'setsid socat TCP-LISTEN:8022,bind=127.0.0.1,reuseaddr,fork EXEC:/bin/true </dev/null >/dev/null 2>&1 &',
    );
    await sys.sb.waitFor(async () => (await sh("ss -Hltn | awk '{print $4}'")).includes(':8022'));
    const busy = await sys.panel.api('PATCH', path('sshconfig'), { port: 8022 });
    // The agent names the field: the form shows the message at the port.
    expect(busy.statusCode).toBe(400);
    expect(busy.json()).toMatchObject({
      message: expect.stringMatching(/8022 is in use/),
      errors: { port: expect.stringMatching(/8022 is in use/) },
    });

    const before = await sh('cat /etc/ssh/sshd_config.d/90-stackdeck.conf');
    await sh('echo "NoSuchOption yes" >/etc/ssh/sshd_config.d/10-broken.conf');
    const broken = await sys.panel.api('PATCH', path('sshconfig'), { port: 2022 });
    expect(broken.statusCode).toBe(422);
    expect(broken.json()).toMatchObject({ message: expect.stringMatching(/sshd/) });
    expect(await sh('cat /etc/ssh/sshd_config.d/90-stackdeck.conf')).toBe(before);
    await sh('rm /etc/ssh/sshd_config.d/10-broken.conf');

    expect(await sh('/etc/init.d/ssh status >/dev/null && echo running')).toBe('running');
    expect((await sshKey('alice')).stdout.trim()).toBe('alice');
    expect((await sys.panel.api('GET', path('sshconfig'))).json()).toMatchObject({ port: 2222 });
  });
});

describe('the end of a user', () => {
  it('forgets a user someone already removed by hand', async () => {
    const res = await sys.panel.api('POST', path('sysusers'), {
      user_name: 'gone',
      password: PASSWORD,
    });
    await sh('userdel -r gone');
    const del = await sys.panel.api(
      'DELETE',
      path(`sysusers/${(res.json() as { id: number }).id}`),
    );
    expect(del.statusCode).toBe(200);
  });

  it('deletes the user with its home, its processes first; the keys go with it', async () => {
    await sh('setsid runuser -u alice -- sleep 600 </dev/null >/dev/null 2>&1 &');
    await sys.sb.waitFor(
      async () => (await sys.sb.exec(['pgrep', '-u', 'alice', 'sleep'])).code === 0,
    );
    const list = (await sys.panel.api('GET', path('sysusers'))).json() as {
      data: { id: number; user_name: string }[];
    };
    const alice = list.data.find((u) => u.user_name === 'alice')!;
    const res = await sys.panel.api('DELETE', path(`sysusers/${alice.id}`));
    expect(res.statusCode, res.body).toBe(200);
    expect((await sys.sb.exec(['id', 'alice'])).code).not.toBe(0);
    expect((await sys.sb.exec(['test', '-e', '/home/alice'])).code).not.toBe(0);
    expect((await sys.sb.exec(['pgrep', '-u', 'alice'])).code).not.toBe(0);
    const keys = (await sys.panel.api('GET', path('pubkeys'))).json() as { data: unknown[] };
    expect(keys.data).toEqual([]);
  });

  it('left an activity line for every change, done or failed with the reason', async () => {
    const log = await activity(sys.panel, sys.server.id);
    const line = (re: RegExp) => log.filter((l) => re.test(l.message));
    expect(line(/^Set the root password$/)[0]?.status).toBe('done');
    expect(line(/^Create system user alice$/)[0]?.status).toBe('done');
    expect(line(/^Create system user toor$/)[0]).toMatchObject({
      status: 'failed',
      error: 'toor has uid 0',
    });
    expect(line(/^Change the password of alice$/)[0]?.status).toBe('done');
    expect(line(/^Create the deployment key of alice$/)[0]?.status).toBe('done');
    expect(line(/^Add SSH key "laptop" for alice$/).length).toBe(2);
    expect(line(/^Remove SSH key "laptop" of alice$/)[0]?.status).toBe('done');
    expect(
      line(/^Change SSH settings/)
        .map((l) => l.status)
        .sort(),
    ).toEqual(['done', 'failed', 'failed']);
    expect(line(/^Delete system user alice$/)[0]?.status).toBe('done');
    expect(log.filter((l) => l.status === 'pending')).toEqual([]);
    // Passwords went over stdin to chpasswd: in no log line, here or on the server.
    for (const secret of [PASSWORD, PASSWORD2]) {
      expect(JSON.stringify(log)).not.toContain(secret);
      expect(
        (await sys.sb.exec(['grep', '-cF', secret, '/var/log/stackdeck-agent.log'])).stdout,
      ).toBe('0\n');
    }
  });
});
