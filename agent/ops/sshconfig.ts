import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SshSettings } from '../../resources/agent/ops';
import { writeFileAtomic } from '../lib/files';
import { run } from '../lib/exec';
import { hasSystemd, unitAction, unitRunning } from '../lib/init';
import {
  DROP_IN,
  type EffectiveSshd,
  MAIN_CONFIG,
  dropInText,
  listeningPorts,
  mainConfigText,
  otherDropInText,
  parseSshdT,
  rootLoginAllowed,
} from '../lib/sshdConfig';
import type { OpTable } from './types';

/** sshd -t and -T want their privilege separation dir, which a fresh /run may lack. */
async function sshdCheck(flag: '-t' | '-T') {
  await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  return run('sshd', [flag]);
}

async function effective(): Promise<EffectiveSshd> {
  const res = await sshdCheck('-T');
  if (res.code !== 0) {
    throw new Error(`sshd cannot read its configuration: ${res.stderr.trim().split('\n')[0]}`);
  }
  return parseSshdT(res.stdout);
}

function settingsOf(e: EffectiveSshd): SshSettings {
  return {
    port: e.ports[0]!,
    password_authentication: e.password_authentication,
    permit_root_login: rootLoginAllowed(e.permit_root_login),
  };
}

async function listening(): Promise<Set<number>> {
  return listeningPorts((await run('ss', ['-Hltn'])).stdout);
}

/** Every file the change touches, as it was (null: it did not exist), for the rollback. */
async function snapshot(files: string[]): Promise<Map<string, string | null>> {
  const saved = new Map<string, string | null>();
  for (const file of files) saved.set(file, await fs.readFile(file, 'utf8').catch(() => null));
  return saved;
}

async function restore(saved: Map<string, string | null>): Promise<void> {
  for (const [file, text] of saved) {
    if (text === null) await fs.rm(file, { force: true });
    else await writeFileAtomic(file, text, 0o644);
  }
}

async function reloadSsh(systemd: boolean): Promise<void> {
  if (!(await unitRunning('ssh', systemd))) {
    await unitAction('ssh', 'start', systemd);
    return;
  }
  const res = await unitAction('ssh', 'reload', systemd);
  if (res.code !== 0) await unitAction('ssh', 'restart', systemd);
}

/** sshd re-executes on reload: wait until it listens on the port it should. */
async function waitListening(port: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await listening()).has(port)) return true;
    await sleep(100);
  }
  return false;
}

export const sshconfigOps: Pick<OpTable, 'sshconfig.get' | 'sshconfig.set'> = {
  async 'sshconfig.get'() {
    return settingsOf(await effective());
  },

  /**
   * Writes the drop-in (and makes it win), checks with `sshd -t`, reloads ssh and waits for it
   * to listen on the port. Any failure puts every file back and reloads the old settings, so
   * sshd is never left stopped or on a port nobody asked for.
   */
  async 'sshconfig.set'(changes) {
    const current = await effective();
    const next = {
      port: changes.port ?? current.ports[0]!,
      password_authentication: changes.password_authentication ?? current.password_authentication,
      permit_root_login:
        changes.permit_root_login === undefined
          ? current.permit_root_login
          : changes.permit_root_login
            ? 'yes'
            : 'no',
    };
    if (!current.ports.includes(next.port) && (await listening()).has(next.port)) {
      throw new Error(`Port ${next.port} is in use on the server; choose another`);
    }
    const dir = path.dirname(DROP_IN);
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
    const others = (await fs.readdir(dir))
      .filter((n) => n.endsWith('.conf') && path.join(dir, n) !== DROP_IN)
      .map((n) => path.join(dir, n));
    for (const file of [MAIN_CONFIG, DROP_IN, ...others]) {
      const stat = await fs.lstat(file).catch(() => null);
      if (stat?.isSymbolicLink()) throw new Error(`${file} is a symbolic link; refused`);
    }
    const saved = await snapshot([MAIN_CONFIG, DROP_IN, ...others]);
    const systemd = await hasSystemd();
    try {
      await writeFileAtomic(DROP_IN, dropInText(next), 0o644);
      const main = saved.get(MAIN_CONFIG) ?? '';
      if (mainConfigText(main) !== main)
        await writeFileAtomic(MAIN_CONFIG, mainConfigText(main), 0o644);
      for (const file of others) {
        const text = saved.get(file) ?? '';
        if (otherDropInText(text) !== text)
          await writeFileAtomic(file, otherDropInText(text), 0o644);
      }
      const test = await sshdCheck('-t');
      if (test.code !== 0) {
        throw new Error(`sshd refused the new settings: ${test.stderr.trim().split('\n')[0]}`);
      }
      const written = await effective();
      if (written.ports.length !== 1 || written.ports[0] !== next.port) {
        throw new Error(`sshd would listen on ${written.ports.join(', ')}, not ${next.port} alone`);
      }
      await reloadSsh(systemd);
      if (!(await waitListening(next.port))) {
        throw new Error(`sshd does not listen on port ${next.port} after the reload`);
      }
      return settingsOf(written);
    } catch (error) {
      await restore(saved);
      await reloadSsh(systemd).catch(() => undefined);
      throw error;
    }
  },
};
