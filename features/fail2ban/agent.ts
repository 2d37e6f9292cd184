import dns from 'node:dns/promises';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../agent/config';
import { applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction } from '../../agent/lib/init';
import { OpError } from '../../agent/lib/opError';
import { parseSshdT } from '../../agent/lib/sshdConfig';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  ALL_KINDS,
  type AttemptLimits,
  JAIL_FILE,
  SOURCES,
  bannedByJail,
  jailOf,
  jailsIn,
  parseJails,
  renderJails,
} from './jail';
import { type AttemptState, ops } from './resource';

const client = (args: string[], timeoutMs = 30_000) =>
  run('fail2ban-client', args, { timeoutMs }).catch((error: Error) => ({
    code: -1,
    stdout: '',
    stderr: error.message,
  }));

async function readLimits(): Promise<AttemptLimits> {
  return parseJails(await fs.readFile(JAIL_FILE, 'utf8').catch(() => null));
}

/** fail2ban's server answers on its socket. */
async function running(): Promise<boolean> {
  const res = await client(['ping'], 10_000);
  return res.code === 0 && /pong/.test(res.stdout);
}

/**
 * The kinds' states, read live with one `fail2ban-client banned` (each call is a Python start,
 * the cost of the read): it fails while fail2ban is stopped, else it names every jail that runs
 * with its bans.
 */
async function states(limits: AttemptLimits, kinds = ALL_KINDS): Promise<AttemptState[]> {
  const res = await client(['banned']);
  const jails = res.code === 0 ? bannedByJail(res.stdout) : new Map<string, string[]>();
  if (!jails) throw new OpError('failed', `fail2ban-client banned answered: ${res.stdout.trim()}`);
  return kinds.map((kind) => {
    const banned = jails.get(jailOf(kind));
    return { kind, ...limits[kind], active: banned !== undefined, banned: banned ?? [] };
  });
}

/**
 * Never banned: the server's own loopback address (its webmail logs in to IMAP from there, the
 * panel's forward arrives there in a sandbox) and the panel's addresses. Nothing wider: a
 * 127.0.0.0/8 or ignoreself-style range would keep every loopback source unbannable, and the
 * tests prove bans with other 127.x sources.
 */
async function neverBanned(): Promise<string[]> {
  const ignore = new Set(['127.0.0.1/32', '::1']);
  try {
    const host = new URL(loadConfig().panel_url).hostname.replace(/^\[|\]$/g, '');
    for (const a of await dns.lookup(host, { all: true })) ignore.add(a.address);
  } catch {
    // No readable config or no answer for the panel's name: the loopback entries still hold.
  }
  return [...ignore];
}

async function sshPorts(): Promise<number[]> {
  await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const res = await run('sshd', ['-T']).catch(() => null);
  return res && res.code === 0 ? parseSshdT(res.stdout).ports : [];
}

/**
 * Without a journal, fail2ban reads the syslog files: a syslog daemon must write them, and a
 * missing file (rsyslog makes it on its first line) would stop fail2ban from starting.
 */
async function ensureLogs(limits: AttemptLimits): Promise<void> {
  const files = new Set(
    ALL_KINDS.filter((k) => limits[k].value > 0).map((k) => SOURCES[k].logpath),
  );
  if (!files.size) return;
  const syslog = await run('pgrep', ['^(rsyslogd|syslog-ng|syslogd)$']);
  if (syslog.code !== 0)
    throw new OpError(
      'failed',
      'This server has neither the systemd journal nor a running syslog daemon (rsyslog): fail2ban would have no log to read',
    );
  for (const file of files) {
    const handle = await fs.open(file, 'a', 0o640).catch(() => null);
    await handle?.close();
  }
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(250);
  }
  return false;
}

/** Starts fail2ban when stopped (kept off at boot where nothing asked for it) or reloads it. */
async function startOrReload(systemd: boolean, wanted: boolean): Promise<void> {
  if (await running()) {
    const res = await client(['reload'], 60_000);
    if (res.code !== 0) throw new Error((res.stderr || res.stdout).trim() || 'reload failed');
    return;
  }
  if (!wanted) return;
  const res = await unitAction('fail2ban', 'start', systemd, 60_000);
  if (res.code !== 0) throw new Error(res.output || 'fail2ban did not start');
  if (!(await waitUntil(running, 30_000)))
    throw new Error('fail2ban did not answer after its start');
}

/** Each jail runs with the limit asked for, or not at all when it is off (fail2ban's view). */
async function verify(limits: AttemptLimits): Promise<void> {
  const wanted = ALL_KINDS.filter((k) => limits[k].value > 0);
  if (!wanted.length && !(await running())) return;
  const jails = jailsIn((await client(['status'])).stdout);
  for (const kind of ALL_KINDS) {
    const on = jails.includes(jailOf(kind));
    if (on !== limits[kind].value > 0)
      throw new OpError(
        'reload_failed',
        `fail2ban ${on ? 'still runs' : 'does not run'} ${jailOf(kind)}`,
      );
    if (!on) continue;
    const got = (await client(['get', jailOf(kind), 'maxretry'])).stdout.trim();
    if (got !== String(limits[kind].value))
      throw new OpError('reload_failed', `fail2ban runs ${jailOf(kind)} with maxretry ${got}`);
  }
}

/** fail2ban comes back after a reboot while any limit is on (Debian enables it; sandboxes not). */
async function enableAtBoot(systemd: boolean): Promise<void> {
  if (systemd) await run('systemctl', ['enable', '--quiet', 'fail2ban']);
  else await run('update-rc.d', ['fail2ban', 'enable']);
}

/**
 * One config transaction: the jail file written, `fail2ban-client -t` checks it, fail2ban is
 * started or reloaded and must then run exactly the jails asked for with their limits; any
 * failure puts the old file back and reloads it. `ignore`: the firewall's ignore list.
 */
async function apply(limits: AttemptLimits, ignore: string[]): Promise<void> {
  const systemd = await hasSystemd();
  if (!systemd) await ensureLogs(limits);
  const never = new Set([...(await neverBanned()), ...ignore]);
  const env = { systemd, sshPorts: await sshPorts(), ignore: [...never] };
  const wanted = ALL_KINDS.some((k) => limits[k].value > 0);
  await applyConfig({
    program: 'fail2ban',
    files: [{ path: JAIL_FILE, content: renderJails(limits, env), mode: 0o644 }],
    check: ['fail2ban-client', '-t'],
    reload: () => startOrReload(systemd, wanted),
    verify: () => verify(limits),
  });
  if (wanted) await enableAtBoot(systemd);
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'fail2ban.list'() {
      return states(await readLimits());
    },

    async 'fail2ban.set'({ kind, changes, ignore }) {
      const limits = await readLimits();
      limits[kind] = { ...limits[kind], ...changes };
      await apply(limits, ignore);
      return (await states(limits, [kind]))[0]!;
    },

    /** With no jail on there is no file to change: the list is sent again with the next limit. */
    async 'fail2ban.ignore'({ ignore }) {
      const limits = await readLimits();
      if (!ALL_KINDS.some((k) => limits[k].value > 0)) return { applied: false };
      await apply(limits, ignore);
      return { applied: true };
    },
  },
  locks: { 'fail2ban.set': () => ['fail2ban'], 'fail2ban.ignore': () => ['fail2ban'] },
});
