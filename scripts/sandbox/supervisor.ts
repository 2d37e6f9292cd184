/**
 * One sandbox's supervisor: a detached process on the host that outlives the command that
 * started the sandbox. It runs the host side of the panel forward, boots the namespaces, and
 * when the sandbox's init dies it tells a reboot (SIGHUP, from reboot(2) inside) from a halt
 * (SIGINT) or a crash, and boots again on the same disk after a reboot. It alone writes
 * state.json. Run as: node --import tsx supervisor.ts ID
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GUEST_DIR, MARKER, SANDBOX_BASE, type Layout, layout, markerValue } from './paths';
import { alive, childrenOf, kill, namespaceOf } from './processes';
import { run } from './run';
import { type SandboxConfig, type SandboxState, readConfig, writeJson } from './state';

const HOST_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const id = process.argv[2] ?? '';
const l = layout(id);
const config = readConfig(l);
if (!config) throw new Error(`no config in ${l.config}`);
const now = () => new Date().toISOString();
const state: SandboxState = {
  id,
  status: 'booting',
  boot: 0,
  reboots: 0,
  supervisorPid: process.pid,
  createdAt: now(),
  updatedAt: now(),
};
/** Set by SIGTERM (stop): from then on nothing is written, stop is removing the dir. */
let stopping = false;
const save = (patch: Partial<SandboxState>) => {
  Object.assign(state, patch, { updatedAt: now() });
  if (!stopping) writeJson(l.state, state);
};
const log = (line: string) => console.log(`[supervisor ${now()}] ${line}`);

const socat = config.panelPort ? startPanelForward(l, config.panelPort) : undefined;
save({ socatPid: socat?.pid });
// stop sends SIGTERM: the init is killed (which ends its pid namespace) and the loop below
// ends without a reboot. unshare and socat are our children: collected here, they leave no
// zombie for the host's PID 1 to reap.
process.on('SIGTERM', () => {
  stopping = true;
  if (state.initPid && alive(state.initPid)) kill(state.initPid);
  else if (state.unsharePid) kill(state.unsharePid); // --kill-child takes the init with it
  if (socat?.pid) kill(socat.pid);
});
const socatExited = new Promise<void>((resolve) =>
  socat ? socat.on('exit', () => resolve()) : resolve(),
);

try {
  while (!stopping) {
    const end = await bootOnce(config);
    if (stopping) break;
    if (end.signal === 'SIGHUP') {
      save({
        status: 'rebooting',
        reboots: state.reboots + 1,
        initPid: undefined,
        pidNs: undefined,
      });
      log(`reboot ${state.reboots}`);
      await waitHomeImageReleased(l);
      continue;
    }
    const why = end.signal ? `signal ${end.signal}` : `exit ${end.code}`;
    if (end.signal === 'SIGINT') save({ status: 'halted', message: 'halted from inside' });
    else if (state.status !== 'failed') save({ status: 'ended', message: `init ended (${why})` });
    log(`sandbox ended: ${why}`);
    break;
  }
} catch (e) {
  log(String(e));
  if (state.initPid) kill(state.initPid);
  save({ status: 'failed', message: String(e) });
}
if (socat?.pid) kill(socat.pid);
await socatExited;
save({ initPid: undefined, unsharePid: undefined, socatPid: undefined });
process.exit(0);

/** The host half of the forward: the panel's TCP port, offered as a Unix socket in ctl. */
function startPanelForward(l: Layout, port: number): ChildProcess {
  const child = spawn(
    'socat',
    [`UNIX-LISTEN:${l.panelSocket},fork,unlink-early,mode=600`, `TCP:127.0.0.1:${port}`],
    {
      env: { PATH: HOST_PATH, [MARKER]: markerValue(id) },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  child.on('exit', (code, signal) => log(`panel forward exited (${signal ?? code})`));
  return child;
}

/** One boot, from unshare to the death of the init. */
async function bootOnce(c: SandboxConfig): Promise<{ code: number | null; signal: string | null }> {
  const boot = state.boot + 1;
  // The guest scripts are copied at every boot, so a reboot runs the current ones.
  for (const name of ['init.sh', 'provision.sh'])
    copyFileSync(join(GUEST_DIR, name), join(l.ctl, name));
  rmSync(join(l.ctl, 'status'), { force: true });
  const consoleFd = openSync(l.console, 'a');
  const started = Date.now();
  const child = spawn(
    'unshare',
    [
      '--mount',
      '--uts',
      '--ipc',
      '--net',
      '--pid',
      '--fork',
      '--kill-child',
      '--propagation',
      'private',
      '--',
      'bash',
      join(GUEST_DIR, 'boot.sh'),
      l.dir,
    ],
    {
      env: {
        PATH: HOST_PATH,
        LANG: 'C.UTF-8',
        [MARKER]: markerValue(id),
        SBX_BOOT: String(boot),
        SBX_BASE: SANDBOX_BASE,
        SBX_HOSTNAME: c.hostname,
        SBX_PANEL_PORT: c.panelPort ? String(c.panelPort) : '',
        SBX_SERVICES: c.services.join(' '),
        SBX_QUOTA: c.quota ? '1' : '',
      },
      stdio: ['ignore', consoleFd, consoleFd],
    },
  );
  closeSync(consoleFd); // the child has its own copy
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  save({
    status: 'booting',
    boot,
    unsharePid: child.pid,
    bootStartedAt: now(),
    message: undefined,
  });
  log(`boot ${boot}: unshare ${child.pid}`);

  // unshare --fork's only child is the namespace's PID 1.
  while (!done && child.pid !== undefined) {
    const [initPid] = childrenOf(child.pid);
    if (initPid !== undefined) {
      save({ initPid, pidNs: namespaceOf(initPid, 'pid') });
      break;
    }
    await sleep(20);
  }
  // The init reports through ctl/status: "booting N", "ready N", "failed N: why".
  while (!done) {
    const status = readStatus();
    if (status.startsWith(`ready ${boot}`)) {
      save({ status: 'ready', bootMs: Date.now() - started });
      log(`boot ${boot}: ready in ${Date.now() - started} ms`);
      break;
    }
    if (status.startsWith(`failed ${boot}`)) break;
    await sleep(100);
  }
  const end = await exited;
  const status = readStatus();
  if (status.startsWith(`failed ${boot}`)) save({ status: 'failed', message: status });
  else if (state.status === 'booting' && end.signal !== 'SIGHUP') {
    save({
      status: 'failed',
      message: `boot ${boot} ended before ready (${end.signal ?? end.code})`,
    });
  }
  return end;
}

function readStatus(): string {
  try {
    return readFileSync(join(l.ctl, 'status'), 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * /home's image was mounted in the old mount namespace with autoclear: the kernel detaches its
 * loop device once that namespace is gone. Mounting it again before then would put one ext4
 * on two devices at once.
 */
async function waitHomeImageReleased(l: Layout): Promise<void> {
  if (!config?.homeSizeMb) return;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await run('losetup', [
      '--noheadings',
      '--output',
      'NAME',
      '--associated',
      l.homeImage,
    ]);
    if (res.code === 0 && res.stdout.trim() === '') return;
    await sleep(50);
  }
  throw new Error(`the loop device of ${l.homeImage} is still attached after the reboot`);
}
