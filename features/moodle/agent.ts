import path from 'node:path';
import { defineAgentFeature } from '../../agent/ops/types';
import { appUser, mustAsUser, releaseAsWebRoot, runPhp } from '../installers/agentApi';
import { appDir, docRoot } from '../webapps/api';
import { ops } from './resource';

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'moodle.install'(args, ctx) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      ctx.progress('Putting Moodle in place', 6);
      await releaseAsWebRoot(user, dir, root, path.join('admin', 'cli', 'install.php'));
      // Moodle's data folder must not be reachable from the web.
      const data = path.join(dir, 'moodledata');
      await mustAsUser(user, 'mkdir', ['-p', '-m', '0750', '--', data]);

      ctx.progress('Running Moodle’s installer', 7);
      // As Moodle documents it (`php admin/cli/install.php --help`).
      await runPhp(user, args.php_version, root, [
        'admin/cli/install.php',
        '--non-interactive',
        '--agree-license',
        '--lang=en',
        `--wwwroot=${args.url}`,
        `--dataroot=${data}`,
        '--dbtype=mariadb',
        '--dbhost=localhost',
        `--dbname=${args.db_name}`,
        `--dbuser=${args.db_user}`,
        `--dbpass=${args.db_password}`,
        `--fullname=${args.title}`,
        `--shortname=${args.short_name}`,
        `--adminuser=${args.admin_user}`,
        `--adminpass=${args.admin_password}`,
        `--adminemail=${args.admin_email}`,
        // The site's PHP runs as the app's user: its group (the web server) needs no write.
        '--chmod=2750',
      ]);
      return { data_dir: data };
    },
  },
  locks: { 'moodle.install': (args) => [`webapp:${args.app}`] },
});
