import path from 'node:path';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  appUser,
  asUser,
  clearWebRoot,
  mustAsUser,
  releaseTree,
  writeAsUser,
} from '../installers/agentApi';
import { RELEASE_DIR } from '../installers/api';
import { appDir, docRoot } from '../webapps/api';
import { INSTALL_SCRIPT, rewireConfig, wpConfig } from './config';
import { ops } from './resource';

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'wordpress.install'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      if (root === dir) throw opFieldError('web_root', 'WordPress needs a web root inside the app');
      const tree = await releaseTree(dir, 'wp-settings.php');

      ctx.progress('Putting WordPress in place', 7);
      await clearWebRoot(user, root);
      await mustAsUser(user, 'mv', ['-T', '--', tree, root]);
      await mustAsUser(user, 'rm', ['-rf', '--', path.join(dir, RELEASE_DIR)]);
      await writeAsUser(user, path.join(root, 'wp-config.php'), wpConfig(args));

      ctx.progress('Running the WordPress installer', 8);
      const script = path.join(dir, '.stackdeck-install.php');
      await writeAsUser(user, script, INSTALL_SCRIPT);
      try {
        const input = JSON.stringify({
          root,
          url: args.url,
          title: args.title,
          user: args.admin_user,
          email: args.admin_email,
          password: args.admin_password,
          public: args.public,
        });
        const php = `/usr/bin/php${args.php_version}`;
        const res = await asUser(user, php, ['-d', 'display_errors=stderr', script], {
          input,
          cwd: dir,
        });
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
    async 'wordpress.rewire'(args) {
      const user = await appUser(args.user);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      const file = path.join(root, 'wp-config.php');
      const text = (await mustAsUser(user, 'cat', ['--', file])).stdout;
      const next = rewireConfig(text, args);
      if (next === null)
        throw new OpError(
          'failed',
          'wp-config.php has no DB_NAME, DB_USER or DB_PASSWORD line the clone can change',
        );
      await writeAsUser(user, file, next);
      return { rewired: true as const };
    },
  },
  locks: {
    'wordpress.install': (args) => [`webapp:${args.app}`],
    'wordpress.rewire': (args) => [`webapp:${args.app}`],
  },
});
