import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { ensureUserLimits } from '../../agent/lib/limits';
import { lookupUser } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  CONF_DIR,
  PREFIX,
  type ProcessStatus,
  confPath,
  logPath,
  parseProgram,
  parseStatus,
  renderProgram,
} from './program';
import { ops } from './resource';

/** How long a started program has to reach RUNNING (startsecs 1, three retries with back-off). */
const START_WAIT_MS = 20_000;
const LOG_LIMIT = 64 * 1024;

const group = (name: string) => `${PREFIX}${name}`;

async function supervisorctl(args: string[]) {
  return run('supervisorctl', args, { timeoutMs: 60_000 });
}

/** The processes of the panel's programs (supervisorctl exits 3 while one is not running). */
async function statuses(name?: string): Promise<ProcessStatus[]> {
  const res = await supervisorctl(['status']);
  if (res.code !== 0 && res.code !== 3)
    throw new OpError('failed', `supervisorctl status: ${(res.stderr || res.stdout).trim()}`);
  const all = parseStatus(res.stdout);
  return name ? all.filter((p) => p.name === name) : all;
}

/** The end of a file, read without following a link. */
async function tail(file: string): Promise<{ text: string; truncated: boolean }> {
  const handle = await fs
    .open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    .catch(() => null);
  if (!handle) return { text: '', truncated: false };
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, LOG_LIMIT);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return { text: buffer.toString('utf8'), truncated: size > LOG_LIMIT };
  } finally {
    await handle.close();
  }
}

/**
 * Waits until every process of the program runs; one that supervisord gives up on (FATAL) or
 * that keeps exiting fails the change, with the end of its output for the user.
 */
async function waitRunning(name: string, numprocs: number): Promise<string> {
  const end = Date.now() + START_WAIT_MS;
  let last: ProcessStatus[] = [];
  while (Date.now() < end) {
    last = await statuses(name);
    if (last.length >= numprocs && last.every((p) => p.state === 'RUNNING')) return 'RUNNING';
    if (last.some((p) => p.state === 'FATAL')) break;
    await sleep(250);
  }
  const out = (await tail(logPath(name, 0))).text.trim().split('\n').slice(-3).join(' ');
  const state = last.map((p) => `${p.state}${p.description ? ` (${p.description})` : ''}`);
  throw opFieldError(
    'command',
    `The program did not stay running: ${state.join(', ') || 'not started'}${out ? `; it said: ${out}` : ''}`,
  );
}

/**
 * Supervisor jobs: one file per program, applied through the config transaction (written
 * atomically, `supervisorctl reread` as the check, `update <group>` as the reload, RUNNING as
 * the proof); the old file comes back if any step fails. One lock for all of them, since
 * reread and update read every program file.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'supervisor.set'(program) {
      const user = await lookupUser(program.user);
      if (!user)
        throw opFieldError('user', `The system user ${program.user} does not exist on the server`);
      if (/["%\n\\]/.test(user.home))
        throw new OpError(
          'refused',
          `The home of ${program.user} has characters supervisor cannot take`,
        );
      const dir = await fs.stat(program.directory).catch(() => null);
      if (!dir?.isDirectory())
        throw opFieldError('directory', `${program.directory} is not a directory on the server`);
      let state = 'STOPPED';
      await ensureUserLimits(program.user);
      await applyConfig({
        program: 'supervisor',
        files: [
          { path: confPath(program.name), content: renderProgram(program, user.home), mode: 0o644 },
        ],
        async check() {
          const res = await supervisorctl(['reread']);
          const said = `${res.stdout}${res.stderr}`;
          if (res.code !== 0 || /ERROR/.test(said))
            throw new OpError('check_failed', `supervisor refused the program: ${said.trim()}`);
        },
        reload: ['supervisorctl', 'update', group(program.name)],
        async verify() {
          if (program.autostart) state = await waitRunning(program.name, program.numprocs);
        },
      });
      return { state };
    },

    async 'supervisor.remove'({ name }) {
      const file = confPath(name);
      const there = await fs.lstat(file).catch(() => null);
      if (there) {
        // Stopped first, as a group: stopasgroup reaches the children too.
        await supervisorctl(['stop', `${group(name)}:*`]);
        await fs.rm(file, { force: true });
      }
      const res = await supervisorctl(['update', group(name)]);
      if (res.code !== 0)
        throw new OpError(
          'reload_failed',
          `supervisorctl update: ${(res.stderr || res.stdout).trim()}`,
        );
      return { removed: Boolean(there) };
    },

    async 'supervisor.status'() {
      return statuses();
    },

    async 'supervisor.list'() {
      const names = (await fs.readdir(CONF_DIR).catch(() => [] as string[]))
        .filter((f) => f.startsWith(PREFIX) && f.endsWith('.conf'))
        .map((f) => f.slice(PREFIX.length, -'.conf'.length));
      return Promise.all(
        names.map(async (name) => parseProgram(name, await fs.readFile(confPath(name), 'utf8'))),
      );
    },

    async 'supervisor.control'({ name, action }) {
      if (!(await fs.lstat(confPath(name)).catch(() => null)))
        throw opFieldError('name', `No job ${name} on the server`);
      const res = await supervisorctl([action, `${group(name)}:*`]);
      const said = `${res.stdout}${res.stderr}`.trim();
      // Stopping what is stopped (or starting what runs) is done already, not an error.
      if (/ERROR/.test(said) && !/not running|already started/.test(said))
        throw new OpError('failed', `supervisorctl ${action}: ${said}`);
      return statuses(name);
    },

    async 'supervisor.log'({ name, process }) {
      return tail(logPath(name, process));
    },
  },
  locks: {
    'supervisor.set': () => ['supervisor'],
    'supervisor.remove': () => ['supervisor'],
    'supervisor.control': () => ['supervisor'],
  },
});
