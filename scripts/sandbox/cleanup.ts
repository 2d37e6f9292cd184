import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_BASE, isSandboxId, layout } from './paths';
import { cmdline, kill, markedProcesses, namespaceOf, waitGone } from './processes';
import { run, runOk } from './run';
import { readState } from './state';

/**
 * Removes one sandbox completely, whatever state it was left in (running, rebooting, crashed
 * launcher): its processes, mounts, loop devices and dir. Safe to run twice.
 */
export async function destroySandbox(id: string): Promise<void> {
  const l = layout(id);
  const state = readState(l);
  // The supervisor first: asked with SIGTERM, it kills the init and collects its own children;
  // one that does not answer is killed. Either way it cannot take the init's death for a reboot.
  const supervisors = markedProcesses(id)
    .map((p) => p.pid)
    .filter((pid) => cmdline(pid).some((arg) => arg.endsWith('supervisor.ts')));
  supervisors.forEach((pid) => kill(pid, 'SIGTERM'));
  const stubborn = await waitGone(supervisors, 5_000);
  stubborn.forEach((pid) => kill(pid));
  await waitGone(stubborn, 5_000);
  // Killing a pid namespace's init kills every process in it. The state's init is checked by
  // its namespace, so a pid reused since a crash is never hit.
  if (state?.initPid && state.pidNs && namespaceOf(state.initPid, 'pid') === state.pidNs) {
    kill(state.initPid);
  }
  // Then whatever else carries the marker: unshare, the init when the state is lost, socat,
  // commands run with exec.
  const rest = markedProcesses(id).map((p) => p.pid);
  rest.forEach((pid) => kill(pid));
  const left = await waitGone([...rest, ...(state?.initPid ? [state.initPid] : [])], 10_000);
  if (left.length > 0)
    throw new Error(`sandbox ${id}: processes ${left.join(' ')} survive SIGKILL`);

  await unmountUnder(l.dir);
  await detachLoopsUnder(l.dir);
  if (existsSync(l.dir)) {
    // --one-file-system: should anything still be mounted below, rm stops there instead of
    // deleting through it into the host's files.
    await runOk('rm', ['-rf', '--one-file-system', l.dir]);
  }
}

/** Every sandbox on this machine, including the leftovers of crashed runs. */
export async function stopAllSandboxes(): Promise<string[]> {
  const ids = new Set<string>();
  if (existsSync(SANDBOX_BASE)) {
    for (const name of readdirSync(SANDBOX_BASE)) if (isSandboxId(name)) ids.add(name);
  }
  for (const p of markedProcesses()) if (isSandboxId(p.id)) ids.add(p.id);
  for (const id of ids) await destroySandbox(id);
  await detachLoopsUnder(SANDBOX_BASE);
  return [...ids].sort();
}

/** Mounts under dir in the host's namespace. A sandbox makes none there; a crash might. */
async function unmountUnder(dir: string): Promise<void> {
  const points = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => p !== undefined && (p === dir || p.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);
  for (const point of points) await runOk('umount', ['--lazy', point]);
}

interface LoopDevice {
  name: string;
  'back-file': string | null;
}

/**
 * Loop devices whose image is under dir. Autoclear detaches them once their mount namespace
 * is gone, which the kernel finishes shortly after the last process exits: wait for that,
 * then detach by hand whatever is left.
 */
async function detachLoopsUnder(dir: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const loops = await loopsUnder(dir);
    if (loops.length === 0) return;
    if (Date.now() > deadline) {
      for (const loop of loops) await runOk('losetup', ['--detach', loop.name]);
      const still = await loopsUnder(dir);
      if (still.length > 0)
        throw new Error(`loop devices still attached: ${still.map((d) => d.name).join(' ')}`);
      return;
    }
    await sleep(100);
  }
}

async function loopsUnder(dir: string): Promise<LoopDevice[]> {
  const res = await run('losetup', ['--json', '--list']);
  if (res.code !== 0 || res.stdout.trim() === '') return [];
  const { loopdevices } = JSON.parse(res.stdout) as { loopdevices: LoopDevice[] };
  return loopdevices.filter((d) => d['back-file']?.startsWith(`${dir}/`));
}
