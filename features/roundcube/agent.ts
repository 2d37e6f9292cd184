import fs from 'node:fs/promises';
import path from 'node:path';
import { OpError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  appUser,
  clearWebRoot,
  importSql,
  moveInto,
  mustAsUser,
  releaseTree,
  writeAsUser,
} from '../installers/agentApi';
import { appDir } from '../webapps/api';
import { installSso } from './agentSso';
import { roundcubeConfig } from './config';
import { ops } from './resource';

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'roundcube.install'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const tree = await releaseTree(dir, 'program/include/iniset.php');

      ctx.progress('Putting Roundcube in place', 7);
      await clearWebRoot(user, path.join(dir, 'public_html'));
      // Only the folders a fresh app holds may be there besides: nothing of the user's is lost.
      for (const name of await fs.readdir(tree)) {
        if (await fs.lstat(path.join(dir, name)).catch(() => null))
          throw new OpError('conflict', `The app's folder holds ${name} already`);
      }
      await moveInto(user, tree, dir);
      for (const sub of ['logs', 'temp'])
        await mustAsUser(user, 'mkdir', ['-p', '-m', '0750', path.join(dir, sub)]);
      await writeAsUser(
        user,
        path.join(dir, 'config', 'config.inc.php'),
        roundcubeConfig({ ...args, dir }),
      );
      await installSso(user, dir, args.app_id, args.sso_key);

      ctx.progress('Loading Roundcube’s database schema', 8);
      await importSql(user, path.join(dir, 'SQL', 'mysql.initial.sql'), {
        name: args.db_name,
        user: args.db_user,
        password: args.db_password,
      });
      const version = await fs
        .readFile(path.join(dir, 'program', 'include', 'iniset.php'), 'utf8')
        .then((text) => /RCMAIL_VERSION',\s*'([^']+)'/.exec(text)?.[1] ?? '')
        .catch(() => '');
      return { version };
    },

    async 'roundcube.sso.set'(args) {
      const user = await appUser(args.user);
      return installSso(user, appDir(user.home, args.app), args.app_id, args.key);
    },
  },
  locks: {
    'roundcube.install': (args) => [`webapp:${args.app}`],
    'roundcube.sso.set': (args) => [`webapp:${args.app}`],
  },
});
