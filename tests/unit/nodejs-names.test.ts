import { describe, expect, it } from 'vitest';
import {
  entryFile,
  envMap,
  gitBranch,
  gitUrl,
  listeningPorts,
  renderNodeProgram,
} from '../../features/nodejs/names';

/** What the Node.js installer accepts, and the supervisor program it writes (research 2.4). */
describe('Node.js installer values', () => {
  it('takes https git addresses only (plain http on loopback), never options or credentials', () => {
    for (const ok of [
      'https://github.com/acme/app.git',
      'https://git.example.com/a/b',
      'http://127.0.0.1:9418/app.git',
    ])
      expect(gitUrl.safeParse(ok).success, ok).toBe(true);
    for (const bad of [
      '--upload-pack=touch /tmp/x',
      '-u https://x.example/a',
      'ext::sh -c touch% /tmp/pwned',
      'file:///etc',
      '/srv/repo.git',
      '../repo',
      'git@github.com:acme/app.git',
      'ssh://git@github.com/acme/app.git',
      'git://github.com/acme/app.git',
      'http://github.com/acme/app.git',
      'https://user:token@github.com/acme/app.git',
      'https://token@github.com/acme/app.git',
      'https://github.com/acme/app.git#main',
      'https://github.com/a b',
    ])
      expect(gitUrl.safeParse(bad).success, bad).toBe(false);
  });

  it('takes branch names and entry files git and the app can hold, nothing else', () => {
    for (const ok of ['main', 'release/1.2', 'v2.0.1']) expect(gitBranch.parse(ok)).toBe(ok);
    for (const bad of ['-b', '--upload-pack=x', 'a..b', 'a b', 'x.lock', 'a/', ''])
      expect(gitBranch.safeParse(bad).success, bad).toBe(false);
    for (const ok of ['server.js', 'src/index.mjs', 'dist/main.cjs'])
      expect(entryFile.parse(ok)).toBe(ok);
    for (const bad of [
      '../server.js',
      '/etc/x.js',
      'a/../../b.js',
      'server',
      '.hidden.js',
      'a b.js',
      'x.js;ls',
    ])
      expect(entryFile.safeParse(bad).success, bad).toBe(false);
  });

  it('takes a small environment of upper-case keys and one-line values', () => {
    expect(envMap.parse({ API_URL: 'https://x.example', DEBUG: '' })).toEqual({
      API_URL: 'https://x.example',
      DEBUG: '',
    });
    for (const bad of [
      { PORT: '1' },
      { NODE_OPTIONS: '--require /tmp/x.js' },
      { LD_PRELOAD: '/tmp/x.so' },
      { lower: 'x' },
      { A: 'two\nlines' },
      { A: 'a"quote' },
      { A: 'back\\slash' },
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])),
    ])
      expect(envMap.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('writes the program as research 2.4 has it: node itself, group stop, env, the log', () => {
    const text = renderNodeProgram({
      app: 'api',
      user: 'alice',
      home: '/home/alice',
      directory: '/home/alice/apps/api/current',
      entry: '/home/alice/apps/api/current/server.js',
      port: 3001,
      env: { GREETING: '100% ready' },
    });
    expect(text.split('\n').slice(0, 3)).toEqual([
      '; stackdeck-node-app api',
      '; Written by Stackdeck: changes here are replaced. Use the panel.',
      '[program:stackdeck-api]',
    ]);
    expect(text).toContain(
      'command=/usr/local/lib/stackdeck/run-limited -- /usr/bin/node /home/alice/apps/api/current/server.js\n',
    );
    expect(text).toContain('directory=/home/alice/apps/api/current\nuser=alice\n');
    expect(text).toContain(
      'environment=NODE_ENV="production",PORT="3001",HOME="/home/alice",GREETING="100%% ready"\n',
    );
    for (const line of [
      'autostart=true',
      'autorestart=true',
      'startsecs=3',
      'stopsignal=TERM',
      'stopasgroup=true',
      'killasgroup=true',
      'stopwaitsecs=20',
      'redirect_stderr=true',
      'stdout_logfile=/var/log/stackdeck/apps/api/node.log',
      'stdout_logfile_maxbytes=10MB',
      'stdout_logfile_backups=5',
    ])
      expect(text).toContain(`\n${line}\n`);
    expect(text).not.toContain('npm');
  });

  it("reads the listening ports from ss's fourth column", () => {
    const ss = [
      'LISTEN 0      511          0.0.0.0:80         0.0.0.0:*',
      'LISTEN 0      128        127.0.0.1:3000       0.0.0.0:*',
      'LISTEN 0      511             [::]:80            [::]:*',
      'LISTEN 0      4096   [::ffff:127.0.0.1]:3002       *:*',
      'LISTEN 0      80     127.0.0.53%lo:53         0.0.0.0:*',
      '',
    ].join('\n');
    expect(listeningPorts(ss)).toEqual([53, 80, 3000, 3002]);
  });
});
