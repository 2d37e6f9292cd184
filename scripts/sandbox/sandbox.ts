import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { destroySandbox } from './cleanup';
import { guestEnv, nsenterArgs } from './exec';
import { type Layout, layout } from './paths';
import { alive, namespaceOf } from './processes';
import { type RunResult, run } from './run';
import { type SandboxConfig, type SandboxState, readConfig, readState } from './state';

export interface ExecOptions {
  /** Written to the command's stdin (which is then closed). */
  input?: string;
  /** Run as this user of the sandbox (runuser -u), not root. */
  user?: string;
  /** Kill the command (and what it started) after this long; default 120 s. */
  timeoutMs?: number;
  /** Extra environment for the command, on top of a clean login-like one. */
  env?: Record<string, string>;
  /** Called with output as it arrives (the result still holds all of it). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

export type ExecResult = RunResult;

const TERMINAL = new Set(['failed', 'halted', 'ended']);

/** A handle on a sandbox, by id: any process may open one; state.json is the truth. */
export class Sandbox {
  readonly id: string;
  readonly layout: Layout;
  readonly config: SandboxConfig;
  /** Reboots the caller has already waited for: waitForReboot waits for the next one. */
  private seenReboots: number;

  constructor(id: string) {
    this.id = id;
    this.layout = layout(id);
    const config = readConfig(this.layout);
    if (!config) throw new Error(`no sandbox ${id} (no ${this.layout.config})`);
    this.config = config;
    this.seenReboots = this.state().reboots;
  }

  get hostname(): string {
    return this.config.hostname;
  }

  /** The sandbox's dir on the host (upper dir, logs, state). */
  get dir(): string {
    return this.layout.dir;
  }

  state(): SandboxState {
    const state = readState(this.layout);
    if (!state) throw new Error(`sandbox ${this.id} has no state (${this.layout.state})`);
    return state;
  }

  /** Reboots since the first boot (reboot(2) inside, answered by a new boot). */
  get reboots(): number {
    return this.state().reboots;
  }

  /** The host pid of the current init, if it runs. */
  get initPid(): number | undefined {
    const s = this.state();
    if (!s.initPid || !s.pidNs || namespaceOf(s.initPid, 'pid') !== s.pidNs) return undefined;
    return alive(s.initPid) ? s.initPid : undefined;
  }

  /** Runs argv inside (never through a shell unless argv says so: ['bash', '-c', ...]). */
  async exec(argv: readonly string[], opts: ExecOptions = {}): Promise<ExecResult> {
    const initPid = this.initPid;
    if (initPid === undefined)
      throw new Error(`sandbox ${this.id} is not running (${this.state().status})`);
    return run('nsenter', nsenterArgs(initPid, argv, opts.user), {
      input: opts.input,
      env: guestEnv(this.id, opts.env),
      timeoutMs: opts.timeoutMs ?? 120_000,
      onOutput: opts.onOutput,
    });
  }

  /** Like exec, but a non-zero exit throws with the command's output. */
  async execOk(argv: readonly string[], opts: ExecOptions = {}): Promise<ExecResult> {
    const res = await this.exec(argv, opts);
    if (res.code !== 0) {
      throw new Error(
        `in sandbox ${this.id}: ${argv.join(' ')} → ${res.signal ?? `exit ${res.code}`}\n${res.stdout}${res.stderr}`,
      );
    }
    return res;
  }

  /**
   * Polls check until it returns a truthy value (returned) or timeoutMs passes (throws with
   * the last error or value). check may throw; that counts as not yet.
   */
  async waitFor<T>(check: () => T | Promise<T>, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await check();
        if (value) return value;
        last = value;
      } catch (e) {
        last = e;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `sandbox ${this.id}: still not so after ${timeoutMs} ms (last: ${String(last)})`,
        );
      }
      await sleep(intervalMs);
    }
  }

  /** Resolves once the current boot is ready; throws with the boot log if it failed. */
  async waitUntilReady(timeoutMs = 180_000): Promise<SandboxState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = readState(this.layout);
      if (s?.status === 'ready' && this.initPid !== undefined) return s;
      if (s && TERMINAL.has(s.status)) {
        throw new Error(`sandbox ${this.id} ${s.status}: ${s.message ?? ''}\n${this.bootLog()}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`sandbox ${this.id} not ready after ${timeoutMs} ms\n${this.bootLog()}`);
      }
      await sleep(100);
    }
  }

  /**
   * Waits for the next reboot the caller has not seen yet to come up ready (a reboot that
   * already happened counts: start it, then wait). Returns the reboot count.
   */
  async waitForReboot(timeoutMs = 180_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.reboots <= this.seenReboots) {
      const s = this.state();
      if (TERMINAL.has(s.status))
        throw new Error(`sandbox ${this.id} ${s.status}: ${s.message ?? ''}`);
      if (Date.now() > deadline)
        throw new Error(`sandbox ${this.id}: no reboot within ${timeoutMs} ms`);
      await sleep(100);
    }
    const s = await this.waitUntilReady(Math.max(1, deadline - Date.now()));
    this.seenReboots = s.reboots;
    return s.reboots;
  }

  /** Reboots the way a root user would on a server without systemd, and waits for it. */
  async reboot(timeoutMs = 180_000): Promise<number> {
    // reboot(2) kills the namespace, this command included: its exit status says nothing.
    await this.exec(['systemctl', 'reboot', '--force', '--force'], { timeoutMs: 30_000 });
    return this.waitForReboot(timeoutMs);
  }

  /** Everything boot.sh and init.sh printed, over every boot. */
  bootLog(): string {
    try {
      return readFileSync(this.layout.console, 'utf8');
    } catch {
      return '';
    }
  }

  /** What the init reported for each service of the current boot. */
  services(): Record<string, 'started' | 'failed'> {
    let text = '';
    try {
      text = readFileSync(`${this.layout.ctl}/services`, 'utf8');
    } catch {
      return {};
    }
    const result: Record<string, 'started' | 'failed'> = {};
    for (const line of text.split('\n')) {
      const [name, outcome] = line.split(' ');
      if (name && (outcome === 'started' || outcome === 'failed')) result[name] = outcome;
    }
    return result;
  }

  /** Kills everything, unmounts, detaches, removes the dir. */
  stop(): Promise<void> {
    return destroySandbox(this.id);
  }
}
