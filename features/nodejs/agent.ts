import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { applyConfig } from '../../agent/lib/configTransaction';
import { ensureUserLimits } from '../../agent/lib/limits';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { APP_LOG_DIR, appDir } from '../webapps/api';
import {
  ownProgram,
  programGroup,
  programStatus,
  removeNodeProgram,
  supervisorctl,
} from './agentProgram';
import { nodeArchiveOps } from './agentArchive';
import { appUser, asUser } from '../installers/agentApi';
import { NODE_STEP_MS, npmInstall, said } from './agentUser';
import { CODE_DIR, listeningPorts, programConfPath, renderNodeProgram } from './names';
import { ops } from './resource';

/** startsecs is 3: the program must be RUNNING well within this, and answer on its port. */
const START_WAIT_MS = 30_000;

/** Whether anything answers HTTP on the loopback port (any status is an answer). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        agent: false,
        timeout: 3000,
        headers: { connection: 'close' },
      },
      (res) => {
        res.resume();
        resolve(true);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** The end of the app's output, for a failure's message. */
async function lastWords(app: string): Promise<string> {
  const text = await fs.readFile(`${APP_LOG_DIR}/${app}/node.log`, 'utf8').catch(() => '');
  // Its own words, not the stack frames under them (node ends with its version).
  const lines = text.split('\n').filter((l) => l.trim() && !/^\s+at |^\s*\^+\s*$/.test(l));
  return lines.slice(-3).join(' ').slice(-400);
}

/** RUNNING after startsecs, then an answer on the port; FATAL or silence fails with its words. */
async function waitServing(app: string, port: number): Promise<number> {
  const end = Date.now() + START_WAIT_MS;
  let state = 'not started';
  while (Date.now() < end) {
    const status = await programStatus(app);
    state = status
      ? `${status.state}${status.description ? ` (${status.description})` : ''}`
      : state;
    if (status?.state === 'FATAL') break;
    if (status?.state === 'RUNNING' && status.pid && (await answers(port))) return status.pid;
    await sleep(250);
  }
  const out = await lastWords(app);
  throw opFieldError(
    'start',
    `The app did not start serving on port ${port}: ${state}${out ? `; it said: ${out}` : ''}`,
  );
}

/**
 * Node.js apps: the code cloned (or unpacked, agentArchive.ts) as the app's user, its program written through the config
 * transaction (reread as the check, update as the reload, RUNNING and an answer on the port as
 * the proof); any failure takes the program back.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    ...nodeArchiveOps,

    async 'node.ports'() {
      const res = await run('ss', ['-Hltn']);
      if (res.code !== 0) throw new OpError('failed', `ss -Hltn: ${said(res)}`);
      return { ports: listeningPorts(res.stdout) };
    },

    async 'node.fetch'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const there = await fs.lstat(dir).catch(() => null);
      if (!there?.isDirectory() || there.uid !== user.uid)
        throw new OpError('failed', `The app's folder ${dir} is missing or not ${user.name}'s`);
      const code = path.join(dir, CODE_DIR);
      if (await fs.lstat(code).catch(() => null))
        throw opFieldError('git_url', `The app has code already (${code})`);
      // Only the address's own protocol: no redirect or submodule reaches another transport.
      const protocol = new URL(args.git_url).protocol === 'http:' ? 'http' : 'https';
      const branch = args.branch ? ['-b', args.branch] : [];
      const clone = await asUser(
        user,
        'git',
        ['clone', '--depth', '1', ...branch, '--', args.git_url, code],
        {
          env: { GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: protocol, GIT_CONFIG_NOSYSTEM: '1' },
          cwd: dir,
          timeoutMs: NODE_STEP_MS,
        },
      );
      if (clone.code !== 0) throw opFieldError('git_url', `git clone: ${said(clone)}`);
      const head = await asUser(user, 'git', ['-C', code, 'rev-parse', 'HEAD']);
      const npm = await npmInstall(user, code, (e, c) => ctx.progress(e, c));
      return { path: code, commit: head.stdout.trim(), npm };
    },

    async 'node.start'(args) {
      const user = await appUser(args.user);
      if (/["%,\\\s]/.test(user.home))
        throw new OpError(
          'refused',
          `The home of ${user.name} has characters supervisor cannot take`,
        );
      const code = path.join(appDir(user.home, args.app), CODE_DIR);
      const entry = path.join(code, args.entry);
      // Read only, but still: an entry the repository links to outside its code is refused.
      const realCode = await fs.realpath(code).catch(() => null);
      const realEntry = await fs.realpath(entry).catch(() => null);
      if (!realCode || !realEntry || !(await fs.stat(realEntry)).isFile())
        throw opFieldError('start', `${args.entry} is not a file of the app's code`);
      if (!realEntry.startsWith(`${realCode}/`))
        throw opFieldError('start', `${args.entry} leads outside the app's code`);
      if ((await ownProgram(args.app)) === false)
        throw opFieldError('name', `A supervisor job ${programGroup(args.app)} is on the server`);
      const logs = await fs.lstat(`${APP_LOG_DIR}/${args.app}`).catch(() => null);
      if (!logs?.isDirectory() || logs.uid !== 0)
        throw new OpError('failed', `The app's log folder is missing: rebuild the app`);
      let pid = 0;
      await ensureUserLimits(user.name);
      await applyConfig({
        program: 'supervisor',
        files: [
          {
            path: programConfPath(args.app),
            content: renderNodeProgram({
              app: args.app,
              user: user.name,
              home: user.home,
              directory: code,
              entry,
              port: args.port,
              env: args.env,
            }),
            mode: 0o600,
          },
        ],
        async check() {
          const res = await supervisorctl(['reread']);
          if (res.code !== 0 || /ERROR/.test(said(res)))
            throw new OpError('check_failed', `supervisor refused the program: ${said(res)}`);
        },
        reload: ['supervisorctl', 'update', programGroup(args.app)],
        async verify() {
          pid = await waitServing(args.app, args.port);
        },
      });
      return { state: 'RUNNING', pid };
    },

    async 'node.remove'({ app }) {
      return { removed: await removeNodeProgram(app) };
    },
  },
  on: {
    /** The web app's removal (features/webapps) stops its program before its files go. */
    async 'app.removing'({ app }) {
      await removeNodeProgram(app);
    },
  },
  locks: {
    'node.fetch': (args) => [`webapp:${args.app}`],
    'node.receive': (args) => [`webapp:${args.app}`],
    'node.unpack': (args) => [`webapp:${args.app}`],
    'node.start': () => ['supervisor'],
    'node.remove': () => ['supervisor'],
  },
});
