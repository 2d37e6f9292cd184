import path from 'node:path';
import { defineAgentFeature } from '../../agent/ops/types';
import { appUser, mustAsUser, releaseAsWebRoot, runPhp } from '../installers/agentApi';
import { appDir, docRoot } from '../webapps/api';
import { ops } from './resource';

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'joomla.install'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      ctx.progress('Putting Joomla in place', 6);
      await releaseAsWebRoot(user, dir, root, path.join('installation', 'joomla.php'));

      ctx.progress('Running Joomla’s installer', 7);
      // As Joomla documents it (`php installation/joomla.php install --help`, Joomla 4.3+).
      await runPhp(user, args.php_version, root, [
        'installation/joomla.php',
        'install',
        `--site-name=${args.title}`,
        `--admin-user=${args.admin_user}`,
        `--admin-username=${args.admin_user}`,
        `--admin-password=${args.admin_password}`,
        `--admin-email=${args.admin_email}`,
        '--db-type=mysqli',
        '--db-host=localhost',
        `--db-user=${args.db_user}`,
        `--db-pass=${args.db_password}`,
        `--db-name=${args.db_name}`,
        `--db-prefix=${args.db_prefix}`,
        '--db-encryption=0',
      ]);
      // Joomla refuses to run while its installer is there; nobody may run it again either.
      await mustAsUser(user, 'rm', ['-rf', '--', path.join(root, 'installation')]);
      return { installed: true as const };
    },
  },
  locks: { 'joomla.install': (args) => [`webapp:${args.app}`] },
});
