import fs from 'node:fs/promises';
import path from 'node:path';
import { applyConfig } from '../../agent/lib/configTransaction';
import { run } from '../../agent/lib/exec';
import { hasSystemd, unitInstalled } from '../../agent/lib/init';
import { writeUserLimits } from '../../agent/lib/limits';
import { lookupUser } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import { APP_LOG_DIR } from './names';
import {
  PREFIX,
  apachePath,
  appDir,
  cacheDir,
  certbotLineage,
  nginxPath,
  snippetsDir,
  sslDir,
} from './appPaths';
import { applyApp } from './agentApply';
import { phpOps } from './agentPhp';
import {
  anyHybrid,
  check,
  fpmCheck,
  phpVersions,
  poolsOf,
  reload,
  reloadNginx,
} from './agentWebServer';
import { parseHeader } from './renderNginx';
import { ops } from './resource';

const NGINX_CONF_DIR = '/etc/nginx/conf.d';

/** The panel's apps as their nginx files' headers say (for the read-back). */
async function readApps() {
  const files = (await fs.readdir(NGINX_CONF_DIR).catch(() => [] as string[])).filter(
    (f) => f.startsWith(PREFIX) && f.endsWith('.conf'),
  );
  const apps = [];
  for (const file of files) {
    const text = await fs.readFile(path.join(NGINX_CONF_DIR, file), 'utf8').catch(() => '');
    const found = parseHeader(text);
    const name = file.slice(PREFIX.length, -'.conf'.length);
    apps.push({ ...found, name } as { name: string } & Record<string, unknown>);
  }
  return apps;
}

/**
 * Web apps: every file of an app is written and checked as one transaction (PHP-FPM's,
 * Apache's and nginx's own checks, then their reloads, then a request through nginx); any
 * failure puts every file back and reloads again. One lock for every web-server change: two
 * applies could each pass `nginx -t` alone and fail together. The PHP runtimes' ops are in
 * agentPhp.ts, the apply itself in agentApply.ts.
 */
declare module '../../agent/ops/types' {
  interface AgentEvents {
    /**
     * `webapp.remove` is about to take the app's files and web-server config away: what another
     * feature runs for the app stops first (features/nodejs: its supervisor program). An error
     * fails the removal, which the panel asks again.
     */
    'app.removing': { app: string };
  }
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'webapp.apply'(spec) {
      return applyApp(spec);
    },

    async 'webapp.remove'({ name, user: userName, files }, ctx) {
      const user = await lookupUser(userName);
      const apacheThere = (await fs.stat('/usr/sbin/apache2ctl').catch(() => null)) !== null;
      const versions = await phpVersions();
      const existed = (await fs.lstat(nginxPath(name)).catch(() => null)) !== null;
      // What other features run for the app stops before its files go (a Node.js app's program).
      await ctx.emit('app.removing', { app: name });
      await applyConfig({
        program: 'the web server',
        files: [
          ...(await poolsOf(name, null)),
          ...(apacheThere ? [{ path: apachePath(name), content: null }] : []),
          { path: nginxPath(name), content: null },
        ],
        async check() {
          await fpmCheck(versions);
          await check('nginx', '/usr/sbin/nginx', ['-t', '-q']);
        },
        async reload() {
          for (const version of versions)
            if (await unitInstalled(`php${version}-fpm`, await hasSystemd()))
              await reload(`php${version}-fpm`);
          if (apacheThere && (await anyHybrid(name))) await reload('apache2');
          await reloadNginx();
        },
      });
      await fs.rm(snippetsDir(name), { recursive: true, force: true });
      await fs.rm(cacheDir(name), { recursive: true, force: true });
      // Its certificate goes with it: the files nginx read and certbot's lineage.
      await fs.rm(sslDir(name), { recursive: true, force: true });
      for (const lineage of certbotLineage(name))
        await fs.rm(lineage, { recursive: true, force: true });
      if (files) {
        await fs.rm(`${APP_LOG_DIR}/${name}`, { recursive: true, force: true });
        // As the user: whatever they planted in their home, rm cannot reach past their rights.
        if (user)
          await run('rm', ['-rf', '--', appDir(user.home, name)], {
            uid: user.uid,
            gid: user.gid,
            timeoutMs: 600_000,
          });
      }
      return { removed: existed };
    },

    async 'webapp.cachePurge'({ name }) {
      const dir = cacheDir(name);
      const entries = await fs.readdir(dir).catch(() => [] as string[]);
      for (const entry of entries)
        await fs.rm(path.join(dir, entry), { recursive: true, force: true });
      return { purged: entries.length };
    },

    async 'limits.apply'({ user, limits }) {
      await writeUserLimits(user, limits);
      return { applied: true as const };
    },

    async 'webapp.list'() {
      return readApps();
    },

    ...phpOps,
  },
  locks: {
    // One package manager at a time, and no web-server change while PHP-FPM is installed.
    'php.install': () => ['apt', 'webserver'],
    'webapp.apply': () => ['webserver'],
    // `supervisor`: subscribers of app.removing stop programs (features/nodejs).
    'webapp.remove': () => ['webserver', 'supervisor'],
    'webapp.cachePurge': () => ['webserver'],
  },
});
