import fs from 'node:fs/promises';
import { applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { writeFileAtomic } from '../../agent/lib/files';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
import { OpError } from '../../agent/lib/opError';
import {
  DOMAINS_DIR,
  DOVECOT_CONF,
  MAIL_ETC,
  MAPS_DIR,
  MASTER_PASSWD,
  MASTER_SECRET,
  SASL_PASSWD,
  type Smarthost,
  VMAIL,
  VMAIL_UID,
  postconfMain,
  postconfMaster,
  renderDovecotConf,
} from './agentConfigs';
import { syncDkim } from './agentDkim';
import { syncMaps } from './agentMaps';
import { ensureMasterPasswd } from './agentMaster';
import { ensureMailCertificate } from './agentTls';

export const MAIL_PACKAGES = [
  'postfix',
  'postfix-pcre',
  'dovecot-core',
  'dovecot-imapd',
  'dovecot-lmtpd',
  'dovecot-sieve',
  'dovecot-managesieved',
  'opendkim',
  'opendkim-tools',
];

const detail = (r: { stdout: string; stderr: string }) =>
  (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ');

async function missingPackages(): Promise<string[]> {
  const res = await run('dpkg-query', [
    '-W',
    '-f=${Package} ${db:Status-Status}\n',
    ...MAIL_PACKAGES,
  ]);
  const ok = new Set(
    res.stdout
      .split('\n')
      .filter((l) => l.endsWith(' installed'))
      .map((l) => l.split(' ')[0]),
  );
  return MAIL_PACKAGES.filter((p) => !ok.has(p));
}

async function install(): Promise<string[]> {
  const missing = await missingPackages();
  if (!missing.length) return [];
  const env = { DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'l' };
  // Postfix's own question is answered: the panel configures it right after.
  await run('debconf-set-selections', [], {
    input: 'postfix postfix/main_mailer_type select Internet Site\n',
    env,
  });
  const res = await run(
    'apt-get',
    [
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      '-o',
      'Dpkg::Options::=--force-confold',
      ...missing,
    ],
    { timeoutMs: 540_000, env },
  );
  if (res.code !== 0) throw new OpError('failed', `apt-get could not install mail: ${detail(res)}`);
  return missing;
}

async function groupGid(name: string): Promise<number | null> {
  const text = await fs.readFile('/etc/group', 'utf8');
  const f = text.split('\n').find((l) => l.startsWith(`${name}:`));
  return f ? Number(f.split(':')[2]) : null;
}

/** The vmail user (uid 5000, fixed: mail keeps its owner across re-installs). */
async function ensureVmail(): Promise<void> {
  if ((await groupGid('vmail')) === null) {
    const g = await run('groupadd', ['-g', String(VMAIL_UID), 'vmail']);
    if (g.code !== 0) throw new OpError('failed', `groupadd vmail: ${detail(g)}`);
  }
  const id = await run('id', ['-u', 'vmail']);
  if (id.code !== 0) {
    const u = await run('useradd', [
      '-u',
      String(VMAIL_UID),
      '-g',
      'vmail',
      '-d',
      VMAIL,
      '-M',
      '-s',
      '/usr/sbin/nologin',
      'vmail',
    ]);
    if (u.code !== 0) throw new OpError('failed', `useradd vmail: ${detail(u)}`);
  } else if (id.stdout.trim() !== String(VMAIL_UID)) {
    throw new OpError(
      'failed',
      `The server's vmail user has uid ${id.stdout.trim()}, not ${VMAIL_UID}`,
    );
  }
  await fs.mkdir(VMAIL, { recursive: true, mode: 0o750 });
  await fs.chown(VMAIL, VMAIL_UID, VMAIL_UID);
}

/**
 * Dovecot's auth (user dovecot) reads the passwd-files under /etc/stackdeck/mail: the 0700
 * /etc/stackdeck becomes 0710 root:dovecot (enter, not list; agent.json stays 0600 root).
 */
async function ensureDirs(dovecotGid: number): Promise<void> {
  await fs.mkdir('/etc/stackdeck', { recursive: true, mode: 0o700 });
  await fs.chown('/etc/stackdeck', 0, dovecotGid);
  await fs.chmod('/etc/stackdeck', 0o710);
  for (const dir of [MAIL_ETC, DOMAINS_DIR]) {
    await fs.mkdir(dir, { recursive: true, mode: 0o750 });
    await fs.chown(dir, 0, dovecotGid);
    await fs.chmod(dir, 0o750);
  }
  await fs.mkdir(MAPS_DIR, { recursive: true, mode: 0o755 });
}

const managesieveInstalled = async () =>
  (await fs.stat('/usr/lib/dovecot/managesieve-login').catch(() => null)) !== null;

async function startOrReload(unit: string): Promise<void> {
  const systemd = await hasSystemd();
  const running = await unitRunning(unit, systemd);
  const res = await unitAction(unit, running ? 'reload' : 'start', systemd);
  if (res.code !== 0)
    throw new Error(`${unit} ${running ? 'reload' : 'start'}: ${res.output.trim()}`);
}

async function restart(unit: string): Promise<void> {
  const systemd = await hasSystemd();
  const running = await unitRunning(unit, systemd);
  const res = await unitAction(unit, running ? 'restart' : 'start', systemd);
  if (res.code !== 0)
    throw new Error(`${unit} ${running ? 'restart' : 'start'}: ${res.output.trim()}`);
}

async function configureDovecot(hostname: string): Promise<void> {
  const content = renderDovecotConf({ hostname, managesieve: await managesieveInstalled() });
  const now = await fs.readFile(DOVECOT_CONF, 'utf8').catch(() => null);
  // Enabling again with nothing new leaves a running Dovecot alone (no restart, no kicked IMAP).
  if (now === content && (await unitRunning('dovecot', await hasSystemd()))) return;
  await applyConfig({
    program: 'dovecot',
    files: [{ path: DOVECOT_CONF, content, mode: 0o644 }],
    check: ['doveconf', '-n'],
    // A reload does not add listeners (quota-status, lmtp): a restart takes the whole file.
    reload: () => restart('dovecot'),
  });
}

/**
 * main.cf and master.cf through postconf's own argv (it rewrites them), in a transaction whose
 * files are the two as they are now: the rewrite happens in the check step, so a refusal
 * (`postfix check`, or a `warning:` of postconf, which exits 0 on an unknown name) puts both
 * files back.
 */
async function configurePostfix(hostname: string, smarthost: Smarthost | null): Promise<boolean> {
  const files = ['/etc/postfix/main.cf', '/etc/postfix/master.cf'];
  const before = await Promise.all(files.map((f) => fs.readFile(f, 'utf8')));
  if (smarthost) {
    const text = `[${smarthost.host}]:${smarthost.port} ${smarthost.username}:${smarthost.password}\n`;
    await writeFileAtomic(SASL_PASSWD, text, 0o600, { uid: 0, gid: 0 });
    const m = await run('postmap', [`hash:${SASL_PASSWD}`]);
    if (m.code !== 0) throw new OpError('failed', `postmap sasl_passwd: ${detail(m)}`);
    await fs.chmod(`${SASL_PASSWD}.db`, 0o600);
  } else {
    await fs.rm(SASL_PASSWD, { force: true });
    await fs.rm(`${SASL_PASSWD}.db`, { force: true });
  }
  await applyConfig({
    program: 'postfix',
    files: files.map((path, i) => ({ path, content: before[i]! })),
    check: async () => {
      for (const argv of [postconfMain(hostname, smarthost), ...postconfMaster()]) {
        const res = await run('postconf', argv);
        if (res.code !== 0 || /warning:/.test(res.stderr))
          throw new OpError('check_failed', `postconf ${argv[0]}: ${detail(res)}`);
      }
      const check = await run('postfix', ['check']);
      if (check.code !== 0 || /warning:/.test(check.stderr))
        throw new OpError('check_failed', `postfix check: ${detail(check)}`);
    },
    reload: () => startOrReload('postfix'),
  });
  const after = await Promise.all(files.map((f) => fs.readFile(f, 'utf8')));
  return after.some((a, i) => a !== before[i]);
}

export async function enableMail(
  hostname: string,
  smarthost: Smarthost | null,
): Promise<{ installed: string[]; changed: boolean }> {
  const installed = await install();
  const dovecotGid = await groupGid('dovecot');
  if (dovecotGid === null)
    throw new OpError('failed', 'Dovecot is installed but its group is missing');
  const before = await fs.readFile(DOVECOT_CONF, 'utf8').catch(() => '');
  await ensureVmail();
  await ensureDirs(dovecotGid);
  await ensureMailCertificate(hostname, dovecotGid);
  await ensureMasterPasswd(dovecotGid);
  // The maps exist before main.cf names them (postfix check looks).
  await syncMaps();
  await syncDkim();
  await configureDovecot(hostname);
  const postfixChanged = await configurePostfix(hostname, smarthost);
  const after = await fs.readFile(DOVECOT_CONF, 'utf8');
  return { installed, changed: installed.length > 0 || postfixChanged || before !== after };
}

const OWNED_MAIN_KEYS = postconfMain('localhost', null)
  .slice(1)
  .map((kv) => kv.slice(0, kv.indexOf('=')))
  .filter((k) => !['mydestination', 'compatibility_level'].includes(k));

/**
 * Dovecot and OpenDKIM stop, Postfix goes back to local mail only (our settings and the
 * submission services taken out), the maps and the master user go. Kept: mail in /var/vmail,
 * the DKIM keys (their DNS records stay valid) and each domain's passwd-file, forwards and
 * autoresponders (the panel keeps no password hash once the server has it): enabling again
 * brings every mailbox back as it was.
 */
export async function disableMail(): Promise<{ changed: boolean }> {
  const was = await fs.stat(MASTER_SECRET).catch(() => null);
  const systemd = await hasSystemd();
  for (const unit of ['dovecot', 'opendkim'])
    if (await unitRunning(unit, systemd)) await unitAction(unit, 'stop', systemd);
  if (await fs.stat('/usr/sbin/postconf').catch(() => null)) {
    await run('postconf', ['-X', ...OWNED_MAIN_KEYS]);
    await run('postconf', ['-MX', 'submission/inet', 'submissions/inet']);
    if (await unitRunning('postfix', systemd)) await run('postfix', ['reload']);
  }
  await fs.rm(MAPS_DIR, { recursive: true, force: true });
  await fs.rm(MASTER_PASSWD, { force: true });
  await fs.rm(MASTER_SECRET, { force: true });
  return { changed: was !== null };
}
