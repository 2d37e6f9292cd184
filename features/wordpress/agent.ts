import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { type PasswdEntry, isRegularUser, lookupUser } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import { appDir, docRoot } from '../webapps/render';
import { INSTALL_SCRIPT, wpConfig } from './config';
import { RELEASE_DIR, ops } from './resource';

/** Runs a program as the app's user (its files, its rights), with a time-out. */
function asUser(user: PasswdEntry, file: string, args: string[], input?: string, cwd?: string) {
  return run(file, args, {
    uid: user.uid,
    gid: user.gid,
    input,
    cwd,
    timeoutMs: 240_000,
    env: { HOME: user.home, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
}

async function mustAsUser(user: PasswdEntry, file: string, args: string[], input?: string) {
  const res = await asUser(user, file, args, input);
  if (res.code !== 0)
    throw new OpError('failed', `${file} ${args[0] ?? ''}: ${(res.stderr || res.stdout).trim()}`);
  return res;
}

/** Writes a file as the user, mode 0640: root never writes into a folder the user controls. */
async function writeAsUser(user: PasswdEntry, file: string, content: string): Promise<void> {
  await mustAsUser(user, 'install', ['-m', '0640', '/dev/null', file]);
  await mustAsUser(user, 'tee', ['--', file], content);
}

/** The one folder of the unpacked release that holds WordPress (`wordpress/` upstream). */
async function wordpressTree(release: string): Promise<string> {
  const entries = await fs.readdir(release, { withFileTypes: true }).catch(() => null);
  if (!entries) throw new OpError('failed', `The release is not unpacked in ${release}`);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const settings = await fs
      .lstat(path.join(release, entry.name, 'wp-settings.php'))
      .catch(() => null);
    if (settings?.isFile()) return path.join(release, entry.name);
  }
  throw new OpError('failed', 'The release holds no WordPress (no wp-settings.php in its folder)');
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'wordpress.install'(args, ctx) {
      const user = await lookupUser(args.user);
      if (!user || !isRegularUser(user))
        throw opFieldError('sys_user', `No system user ${args.user} on this server`);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      if (root === dir) throw opFieldError('web_root', 'WordPress needs a web root inside the app');
      const release = path.join(dir, RELEASE_DIR);
      const tree = await wordpressTree(release);

      // The web root may hold only the app's placeholder page: nothing of the user's is lost.
      const there = await fs.readdir(root).catch(() => [] as string[]);
      const theirs = there.filter((name) => !/^index\.(php|html)$/.test(name));
      if (theirs.length)
        throw opFieldError(
          'web_root',
          `The web root holds files already (${theirs.slice(0, 3).join(', ')})`,
        );
      ctx.progress('Putting WordPress in place', 7);
      await mustAsUser(user, 'rm', [
        '-f',
        '--',
        path.join(root, 'index.php'),
        path.join(root, 'index.html'),
      ]);
      await mustAsUser(user, 'rmdir', ['--', root]);
      await mustAsUser(user, 'mv', ['-T', '--', tree, root]);
      await mustAsUser(user, 'rm', ['-rf', '--', release]);
      await writeAsUser(user, path.join(root, 'wp-config.php'), wpConfig(args));

      ctx.progress('Running the WordPress installer', 8);
      const script = path.join(dir, '.stackdeck-install.php');
      await writeAsUser(user, script, INSTALL_SCRIPT);
      try {
        const php = `/usr/bin/php${args.php_version}`;
        const input = JSON.stringify({
          root,
          url: args.url,
          title: args.title,
          user: args.admin_user,
          email: args.admin_email,
          password: args.admin_password,
          public: args.public,
        });
        const res = await asUser(user, php, ['-d', 'display_errors=stderr', script], input, dir);
        if (res.code !== 0)
          throw new OpError(
            'failed',
            `WordPress's installer: ${(res.stderr || res.stdout).trim().slice(-800)}`,
          );
        const answer = JSON.parse(res.stdout.trim().split('\n').at(-1) ?? '{}') as {
          user_id?: number;
          version?: string;
        };
        if (typeof answer.user_id !== 'number')
          throw new OpError(
            'failed',
            `WordPress's installer said: ${res.stdout.trim().slice(-400)}`,
          );
        return { user_id: answer.user_id, version: String(answer.version ?? '') };
      } finally {
        await asUser(user, 'rm', ['-f', '--', script]);
      }
    },
  },
  locks: { 'wordpress.install': (args) => [`webapp:${args.app}`] },
});
