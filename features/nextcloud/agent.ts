import path from 'node:path';
import { defineAgentFeature } from '../../agent/ops/types';
import { appUser, mustAsUser, releaseAsWebRoot, runPhp } from '../installers/agentApi';
import { appDir, docRoot } from '../webapps/api';
import { ops } from './resource';

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'nextcloud.install'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      ctx.progress('Putting Nextcloud in place', 6);
      await releaseAsWebRoot(user, dir, root, 'occ');
      // The data folder stays out of the web root: nothing in it is ever served.
      const data = path.join(dir, 'data');
      await mustAsUser(user, 'mkdir', ['-p', '-m', '0750', '--', data]);

      ctx.progress('Running occ maintenance:install', 7);
      // As Nextcloud documents it (admin manual, "Installing from command line").
      await runPhp(user, args.php_version, root, [
        'occ',
        'maintenance:install',
        '--database=mysql',
        `--database-name=${args.db_name}`,
        '--database-host=localhost',
        `--database-user=${args.db_user}`,
        `--database-pass=${args.db_password}`,
        `--admin-user=${args.admin_user}`,
        `--admin-pass=${args.admin_password}`,
        `--admin-email=${args.admin_email}`,
        `--data-dir=${data}`,
      ]);
      ctx.progress('Trusting the app’s domain', 9);
      await runPhp(user, args.php_version, root, [
        'occ',
        'config:system:set',
        'trusted_domains',
        '1',
        `--value=${args.domain}`,
      ]);
      await runPhp(user, args.php_version, root, ['occ', 'background:cron']);
      return { data_dir: data };
    },
  },
  locks: { 'nextcloud.install': (args) => [`webapp:${args.app}`] },
});
