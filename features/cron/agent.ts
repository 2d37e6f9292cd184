import { run } from '../../agent/lib/exec';
import { ensureUserLimits } from '../../agent/lib/limits';
import { lookupUser } from '../../agent/lib/users';
import { WRAPPER } from '../webapps/api';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import { type Crontab, ownLines, parseCrontab, renderCrontab } from './crontab';
import { ops } from './resource';

/** "Run now" stops the command after a minute and keeps the end of its output. */
const RUN_LIMIT_MS = 60_000;
const OUTPUT_LIMIT = 64 * 1024;

/** The user's crontab as `crontab -l` gives it; none yet is an empty one. */
async function readCrontab(user: string): Promise<Crontab> {
  const res = await run('crontab', ['-l', '-u', user]);
  if (res.code === 0) return parseCrontab(res.stdout);
  if (/no crontab for/i.test(res.stderr)) return parseCrontab('');
  if (/unknown|does not exist|not allowed/i.test(res.stderr))
    throw opFieldError('sys_user', `The system user ${user} does not exist on the server`);
  throw new OpError('failed', `crontab -l failed: ${res.stderr.trim() || `exit ${res.code}`}`);
}

/**
 * Installs the crontab with `crontab -u user -` (cron's own check of the syntax; the file
 * lands atomically in its spool) and reads it back with `crontab -l`: what cron holds must be
 * what was written, or the change failed.
 */
async function writeCrontab(user: string, tab: Crontab): Promise<void> {
  const limited = user !== 'root';
  await ensureUserLimits(user);
  const text = renderCrontab(tab, { limited });
  const res = text
    ? await run('crontab', ['-u', user, '-'], { input: text })
    : await run('crontab', ['-r', '-u', user]);
  if (res.code !== 0 && !(text === '' && /no crontab/i.test(res.stderr)))
    throw new OpError('check_failed', `crontab refused the jobs: ${res.stderr.trim()}`);
  const back = await run('crontab', ['-l', '-u', user]);
  const holds = back.code === 0 ? back.stdout : '';
  if (holds !== text) throw new OpError('failed', 'The crontab does not read back as written');
}

/** Cron jobs: each op holds the user's crontab, so parallel changes never lose one. */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'cron.set'({ sys_user, id, schedule, command }) {
      const tab = await readCrontab(sys_user);
      tab.jobs = [...tab.jobs.filter((j) => j.id !== id), { id, schedule, command }];
      await writeCrontab(sys_user, tab);
      return { set: true as const };
    },
    async 'cron.remove'({ sys_user, id }) {
      const tab = await readCrontab(sys_user).catch((error: unknown) => {
        // The user is gone, and its crontab with it: nothing left to remove.
        if (error instanceof OpError && error.field === 'sys_user') return null;
        throw error;
      });
      if (!tab || !tab.jobs.some((j) => j.id === id)) return { removed: false };
      tab.jobs = tab.jobs.filter((j) => j.id !== id);
      await writeCrontab(sys_user, tab);
      return { removed: true };
    },
    async 'cron.run'({ sys_user, command }) {
      // Where cron itself runs a job: the user's home.
      const user = await lookupUser(sys_user);
      if (!user)
        throw opFieldError('sys_user', `The system user ${sys_user} does not exist on the server`);
      // The command is a shell command by nature: run by the user's login shell, as the user,
      // never as root for another user's job, under the user's limits as cron runs it; argv
      // only, the command is one argument.
      await ensureUserLimits(sys_user);
      const argv =
        sys_user === 'root'
          ? ['-lc', command]
          : ['-u', sys_user, '--', WRAPPER, '--', 'bash', '-lc', command];
      const started = await run(sys_user === 'root' ? 'bash' : 'runuser', argv, {
        timeoutMs: RUN_LIMIT_MS,
        cwd: user.home,
        // What cron gives a job: its user's home and names.
        env: { HOME: user.home, LOGNAME: sys_user, USER: sys_user },
      }).catch((error: Error & { killed?: boolean; signal?: string }) => {
        if (error.killed || error.signal) return null;
        throw new OpError('failed', `The command could not start: ${error.message}`);
      });
      if (!started)
        return { code: -1, output: 'Stopped after a minute', truncated: false, timed_out: true };
      const output = `${started.stdout}${started.stderr}`;
      return {
        code: started.code,
        output: output.slice(-OUTPUT_LIMIT),
        truncated: output.length > OUTPUT_LIMIT,
        timed_out: false,
      };
    },
    async 'cron.list'({ sys_user }) {
      const tab = await readCrontab(sys_user);
      return { jobs: tab.jobs, own_lines: ownLines(tab) };
    },
  },
  locks: {
    'cron.set': ({ sys_user }) => [`crontab:${sys_user}`],
    'cron.remove': ({ sys_user }) => [`crontab:${sys_user}`],
  },
});
