import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SshSettings, ops } from './resource';
import { applyConfig } from '../../agent/lib/configTransaction';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitAction, unitRunning } from '../../agent/lib/init';
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
} from '../../agent/lib/sshdConfig';
import type { AgentFeature } from '../../agent/ops/types';

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

type SshconfigOps = Pick<AgentFeature<typeof ops>['ops'], 'sshconfig.get' | 'sshconfig.set'>;

export const sshconfigOps: SshconfigOps = {
  async 'sshconfig.get'() {
    return settingsOf(await effective());
  },

  /**
   * Writes the drop-in (and makes it win), checks with `sshd -t`, reloads ssh and waits for it
   * to listen on the port: one config transaction, so any failure puts every file back and
   * reloads the old settings, and sshd is never left stopped or on a port nobody asked for.
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
      throw opFieldError('port', `Port ${next.port} is in use on the server; choose another`);
    }
    const dir = path.dirname(DROP_IN);
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
    const others = (await fs.readdir(dir))
      .filter((n) => n.endsWith('.conf') && path.join(dir, n) !== DROP_IN)
      .map((n) => path.join(dir, n));
    const read = (file: string) => fs.readFile(file, 'utf8').catch(() => '');
    const systemd = await hasSystemd();
    let written: EffectiveSshd | undefined;
    await applyConfig({
      program: 'sshd',
      files: [
        { path: DROP_IN, content: dropInText(next), mode: 0o644 },
        { path: MAIN_CONFIG, content: mainConfigText(await read(MAIN_CONFIG)), mode: 0o644 },
        ...(await Promise.all(
          others.map(async (file) => ({ path: file, content: otherDropInText(await read(file)) })),
        )),
      ],
      check: async () => {
        const test = await sshdCheck('-t');
        if (test.code !== 0) {
          throw new OpError(
            'check_failed',
            `sshd refused the new settings: ${test.stderr.trim().split('\n')[0]}`,
          );
        }
        written = await effective();
        if (written.ports.length !== 1 || written.ports[0] !== next.port) {
          throw new OpError(
            'check_failed',
            `sshd would listen on ${written.ports.join(', ')}, not ${next.port} alone`,
          );
        }
      },
      reload: () => reloadSsh(systemd),
      verify: async () => {
        if (!(await waitListening(next.port))) {
          throw new OpError(
            'reload_failed',
            `sshd does not listen on port ${next.port} after the reload`,
          );
        }
      },
    });
    return settingsOf(written!);
  },
};
