import { sql } from 'kysely';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PinoLoggerOptions } from 'fastify/types/logger';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, loggerOptions } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { ensureAdmin } from '../../server/bootstrap';
import { runCli } from '../../server/cli';
import { loadConfig } from '../../server/config';
import { loadOrCreateSecrets } from '../../server/secrets';
import { type TestApp, buildTestApp, createPostgresDatabase, dialect } from './helpers';
import { waitFor } from '../waitFor';
// Owners on Pro: no plan limit in the way (plan-limits.test.ts tests the limits).
import { PLAN_IDS } from '../../features/plans/api';

/** What an install keeps under DATA_DIR, the first admin, and the stackdeck CLI. */
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-install-'));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('install secrets', () => {
  it('are generated on first start with mode 0600, differ between installs, are reused', () => {
    const [a, b] = [tmpDir(), tmpDir()];
    dirs.push(a, b);
    const first = loadOrCreateSecrets(a);
    const other = loadOrCreateSecrets(b);
    const file = path.join(a, 'secrets.json');
    expect(mode(file)).toBe(0o600);
    expect(mode(a)).toBe(0o700);
    expect(first.jwtKey).toHaveLength(32);
    expect(first.encryptionKey).toHaveLength(32);
    expect(Buffer.from(first.jwtKey).equals(Buffer.from(other.jwtKey))).toBe(false);
    expect(first.encryptionKey.equals(other.encryptionKey)).toBe(false);
    expect(first.jwtKey.toString()).not.toBe(first.encryptionKey.toString());
    // A restart reads the same keys; a loosened mode is tightened again.
    fs.chmodSync(file, 0o644);
    const again = loadOrCreateSecrets(a);
    expect(Buffer.from(again.jwtKey).equals(Buffer.from(first.jwtKey))).toBe(true);
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(mode(file)).toBe(0o600);
  });

  it('refuses an incomplete or damaged secrets file instead of replacing it', () => {
    const dir = tmpDir();
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'secrets.json'), '{"jwtKey":"c2hvcnQ="}');
    expect(() => loadOrCreateSecrets(dir)).toThrow(/incomplete/);
    fs.writeFileSync(
      path.join(dir, 'secrets.json'),
      JSON.stringify({ jwtKey: 'c2hvcnQ=', encryptionKey: 'c2hvcnQ=' }),
    );
    expect(() => loadOrCreateSecrets(dir)).toThrow(/wrong size/);
  });
});

describe('a panel restarted on its data', () => {
  let t: TestApp;
  /** The panel's log lines (a lost database connection is a warning). */
  const lines: string[] = [];
  beforeAll(async () => {
    const options = loggerOptions('warn') as PinoLoggerOptions;
    t = await buildTestApp(
      {},
      { logger: { ...options, stream: { write: (line: string) => void lines.push(line) } } },
    );
  });
  afterAll(() => t.close());

  it('keeps its keys: tokens and sealed secrets of before the restart still work', async () => {
    const user = await t.user();
    const sealed = t.app.services.box.seal('JBSWY3DPEHPK3PXP');
    expect(mode(path.join(t.config.dataDir, 'secrets.json'))).toBe(0o600);
    await t.restart();
    const res = await t.call('GET', `/api/v1/users/${user.id}`, { token: user.token });
    expect(res.statusCode).toBe(200);
    expect(t.app.services.box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('another install does not accept this one’s tokens', async () => {
    const user = await t.user();
    const other = await buildTestApp();
    try {
      const res = await other.call('GET', `/api/v1/users/${user.id}`, { token: user.token });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('invalid token');
    } finally {
      await other.close();
    }
  });

  it.runIf(dialect === 'postgres')(
    'survives PostgreSQL dropping its connections (restart, failover)',
    async () => {
      expect((await t.call('GET', '/healthz')).statusCode).toBe(200); // an idle pooled connection
      // And one lent out, as a transaction holds it between two queries.
      let acquired = () => {};
      let release = () => {};
      const holding = new Promise<void>((resolve) => (acquired = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const lentOut = t.app.db.connection().execute(async (conn) => {
        await sql`SELECT 1`.execute(conn);
        acquired();
        await gate;
        return sql`SELECT 1`.execute(conn).then(
          () => 'answered',
          () => 'refused',
        );
      });
      await holding;
      const before = lines.length;
      const lost = () =>
        lines.slice(before).filter((line) => line.includes('"msg":"database connection lost"'))
          .length;
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
      await admin.connect();
      let dropped = 0;
      try {
        // All of the database's connections, as a restart drops them; the panel's own pool logs
        // each it loses (pg-boss's, named `stackdeck-jobs`, are pg-boss's to log and reopen).
        const { rows } = await admin.query<{ ours: boolean }>(
          "SELECT application_name <> 'stackdeck-jobs' AS ours, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
          [new URL(t.config.databaseUrl!).pathname.slice(1)],
        );
        dropped = rows.filter((row) => row.ours).length;
        expect(dropped).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // The pool sees each of its idle connections end (the panel logs each) and drops them.
      await waitFor(
        `the panel to log ${dropped} lost database connections`,
        () => lost() >= dropped,
        // Each socket's end is read by the event loop; four test files share the CPUs.
        { timeoutMs: 15_000 },
      );
      // The lent-out connection's error was no uncaught exception (the run fails on one): its
      // next query is refused, and the pool serves the next request on a new connection.
      release();
      expect(await lentOut).toBe('refused');
      expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
    },
  );

  it.runIf(dialect === 'sqlite')('keeps the SQLite database and its WAL files 0600', async () => {
    await t.user(); // a write, so the WAL exists
    const db = path.join(t.config.dataDir, 'stackdeck.db');
    for (const file of [db, `${db}-wal`, `${db}-shm`]) {
      expect(fs.existsSync(file), file).toBe(true);
      expect(mode(file), file).toBe(0o600);
    }
  });
});

describe('the install script', () => {
  let t: TestApp;
  let dir: string;
  let bundle: string;
  let owner: Awaited<ReturnType<TestApp['user']>>;
  beforeAll(async () => {
    dir = tmpDir();
    dirs.push(dir);
    bundle = path.join(dir, 'stackdeck-agent.mjs');
    fs.writeFileSync(bundle, 'console.log("the agent");\n');
    t = await buildTestApp({ agentBundle: bundle });
    owner = await t.user({ plan: PLAN_IDS.pro });
  });
  afterAll(() => t.close());

  /** A new server's install key and the script the Connect page shows for it. */
  async function newServer(): Promise<{ key: string; shown: string }> {
    const created = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
      token: owner.token,
      body: { name: 'web-1' },
    });
    const sid = (created.json() as { id: number }).id;
    const res = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=script&sid=${sid}`, {
      token: owner.token,
    });
    const { command, script } = res.json() as { command: string; script: string };
    return { key: /\/install\/([\w-]+) /.exec(command)![1]!, shown: script };
  }

  /** Runs the script's definitions, then `check_agent FILE`, as bash would on the server. */
  function checkAgent(script: string, file: string) {
    const defs = script.slice(0, script.indexOf('# ---- the install itself ----'));
    expect(defs).toContain('check_agent()');
    // Progress events would go to the panel: here they go nowhere.
    const program = `${defs}\nevent() { :; }\ncheck_agent "$1"\n`;
    return new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile('bash', ['-c', program, 'install', file], (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stderr }),
      );
    });
  }

  it('carries the SHA-256 of the agent bundle the panel serves, and runs only that bundle', async () => {
    const { key, shown } = await newServer();
    const script = await t.call('GET', `/install/${key}`);
    expect(script.statusCode).toBe(200);
    const served = await t.call('GET', '/agent/stackdeck-agent.mjs');
    expect(served.statusCode).toBe(200);
    const sha256 = createHash('sha256').update(served.rawPayload).digest('hex');
    expect(script.body).toContain(`AGENT_SHA256='${sha256}'`);
    expect(shown).toBe(script.body);
    // Checked after the download, before it replaces the installed agent or anything starts.
    const steps = script.body.slice(script.body.indexOf('# ---- the install itself ----'));
    expect(steps.indexOf('check_agent /opt/stackdeck/agent.mjs.new')).toBeGreaterThan(
      steps.indexOf('$PANEL/agent/stackdeck-agent.mjs'),
    );
    expect(steps.indexOf('check_agent /opt/stackdeck/agent.mjs.new')).toBeLessThan(
      steps.indexOf('mv /opt/stackdeck/agent.mjs.new'),
    );

    const download = path.join(dir, 'agent.mjs.new');
    fs.writeFileSync(download, served.rawPayload);
    expect(await checkAgent(script.body, download)).toEqual({ code: 0, stderr: '' });
    expect(fs.existsSync(download)).toBe(true);

    fs.writeFileSync(download, Buffer.concat([served.rawPayload, Buffer.from('\nfetch("x")')]));
    const tampered = await checkAgent(script.body, download);
    expect(tampered.code).not.toBe(0);
    expect(tampered.stderr).toContain(
      `stackdeck: The downloaded agent does not match the SHA-256 this script carries (${sha256}): it was not installed.`,
    );
    expect(fs.existsSync(download)).toBe(false);
  });

  it('follows a rebuilt bundle, and stops at once when the panel has none', async () => {
    fs.writeFileSync(bundle, 'console.log("the agent, rebuilt");\n');
    fs.utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    const { key } = await newServer();
    const rebuilt = (await t.call('GET', `/install/${key}`)).body;
    const sha256 = createHash('sha256').update(fs.readFileSync(bundle)).digest('hex');
    expect(rebuilt).toContain(`AGENT_SHA256='${sha256}'`);

    fs.rmSync(bundle);
    const none = await t.call('GET', `/install/${key}`);
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain(`AGENT_SHA256=''`);
    const download = path.join(dir, 'anything.mjs');
    fs.writeFileSync(download, 'console.log("any agent");\n');
    const run = await checkAgent(none.body, download);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('stackdeck: The panel has no agent build to install');
    expect((await t.call('GET', '/agent/stackdeck-agent.mjs')).statusCode).toBe(503);
  });
});

describe('first start: ensureAdmin', () => {
  it('creates the admin of ADMIN_EMAIL/ADMIN_PASSWORD once', async () => {
    const t = await buildTestApp({
      adminEmail: 'Root@Example.com',
      adminPassword: 'an admin password',
    });
    try {
      expect(await ensureAdmin(t.app)).toEqual({
        email: 'root@example.com',
        generatedPassword: null,
      });
      const res = await t.call('POST', '/api/v1/users/login', {
        body: { email: 'root@example.com', password: 'an admin password' },
      });
      expect(res.json().User.is_admin).toBe(true);
      // A restart with other settings changes nothing: an admin exists.
      t.app.config.adminPassword = 'another admin password';
      expect(await ensureAdmin(t.app)).toBeNull();
      expect(await t.login('root@example.com', 'an admin password')).toBeTruthy();
    } finally {
      await t.close();
    }
  });

  it('generates a password when none is set, and it works', async () => {
    const t = await buildTestApp();
    try {
      const created = await ensureAdmin(t.app);
      expect(created?.email).toBe('admin@localhost');
      expect(created?.generatedPassword).toMatch(/^[\w-]{24}$/);
      const res = await t.call('POST', '/api/v1/users/login', {
        body: { email: 'admin@localhost', password: created!.generatedPassword },
      });
      expect(res.json().User).toMatchObject({ is_admin: true });
      const row = await t.app.services.users.findByEmail('admin@localhost');
      expect(row?.password_hash).not.toContain(created!.generatedPassword!);
    } finally {
      await t.close();
    }
  });

  it('promotes an existing account of ADMIN_EMAIL and signs out its sessions', async () => {
    const t = await buildTestApp();
    try {
      const user = await t.user();
      t.app.config.adminEmail = user.email;
      t.app.config.adminPassword = 'the admin password now';
      await ensureAdmin(t.app);
      expect(
        (await t.call('GET', `/api/v1/users/${user.id}`, { token: user.token })).statusCode,
      ).toBe(401);
      const res = await t.call('POST', '/api/v1/users/login', {
        body: { email: user.email, password: 'the admin password now' },
      });
      expect(res.json().User).toEqual({ id: user.id, is_admin: true, plan_id: 1 });
    } finally {
      await t.close();
    }
  });

  it('refuses an ADMIN_PASSWORD shorter than the password rule', async () => {
    const t = await buildTestApp({ adminPassword: 'short' });
    try {
      await expect(ensureAdmin(t.app)).rejects.toThrow('ADMIN_PASSWORD: At least 10 characters');
      expect(await t.app.services.users.count()).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('the stackdeck CLI', () => {
  let env: NodeJS.ProcessEnv;
  let drop: (() => Promise<void>) | undefined;
  const out: string[] = [];
  const err: string[] = [];
  const cli = (...argv: string[]) => {
    out.length = 0;
    err.length = 0;
    return runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  };

  beforeAll(async () => {
    const dataDir = tmpDir();
    dirs.push(dataDir);
    env = { DATA_DIR: dataDir, WEB_DIR: '' };
    if (dialect === 'postgres') {
      const pg = await createPostgresDatabase();
      env.DATABASE_URL = pg.url;
      drop = pg.drop;
    }
  });
  afterAll(() => drop?.());

  /** A panel on the CLI's data, to check what the CLI did through the API. */
  async function withPanel(
    check: (login: (e: string, p: string) => Promise<number>) => Promise<void>,
  ) {
    const app = await build({ config: { ...loadConfig(env), webDir: null } });
    try {
      await check(async (email, password) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/users/login',
          payload: { email, password },
        });
        return res.statusCode === 200 && res.json().User.is_admin ? 1 : res.statusCode;
      });
    } finally {
      await app.close();
    }
  }

  it('create-admin makes an admin with the given password', async () => {
    expect(
      await cli('create-admin', '--email', 'Ops@Example.com', '--password', 'ops password 1'),
    ).toBe(0);
    expect(out).toEqual(['Admin ops@example.com created.']);
    expect(fs.existsSync(path.join(env.DATA_DIR!, 'secrets.json'))).toBe(true);
    await withPanel(async (login) => {
      expect(await login('ops@example.com', 'ops password 1')).toBe(1);
    });
  });

  it('create-admin prints a generated password once when none is given', async () => {
    expect(await cli('create-admin', '--email', 'gen@example.com', '--name', 'Gen')).toBe(0);
    const printed = out.find((l) => l.startsWith('Password: '))?.slice(10);
    expect(printed).toMatch(/^[\w-]{24}$/);
    await withPanel(async (login) => {
      expect(await login('gen@example.com', printed!)).toBe(1);
    });
  });

  it('reset-password sets a new password', async () => {
    expect(
      await cli('reset-password', '--email', 'ops@example.com', '--password', 'ops password 2'),
    ).toBe(0);
    expect(out[0]).toMatch(/^Password of ops@example.com reset/);
    await withPanel(async (login) => {
      expect(await login('ops@example.com', 'ops password 1')).toBe(401);
      expect(await login('ops@example.com', 'ops password 2')).toBe(1);
    });
  });

  it('create-admin on an existing account promotes it', async () => {
    const app = await build({ config: { ...loadConfig(env), webDir: null } });
    await app.services.users.create({
      email: 'plain@example.com',
      user_name: 'P',
      password_hash: 'x',
    });
    await app.close();
    expect(
      await cli('create-admin', '--email', 'plain@example.com', '--password', 'now an admin'),
    ).toBe(0);
    expect(out).toEqual(['plain@example.com is now an admin.']);
    await withPanel(async (login) => {
      expect(await login('plain@example.com', 'now an admin')).toBe(1);
    });
  });

  it('confirm-user lets in a user whose confirmation mail reaches no one (no SMTP)', async () => {
    const app = await build({ config: { ...loadConfig(env), webDir: null } });
    const row = await app.services.users.create({
      email: 'newcomer@example.com',
      user_name: 'N',
      password_hash: await hashPassword('newcomer password'),
    });
    await app.close();
    await withPanel(async (login) => {
      expect(await login('newcomer@example.com', 'newcomer password')).toBe(403);
    });
    expect(await cli('confirm-user', '--email', 'Newcomer@Example.com')).toBe(0);
    expect(out).toEqual(['newcomer@example.com is confirmed: they can sign in now.']);
    await withPanel(async (login) => {
      expect(await login('newcomer@example.com', 'newcomer password')).toBe(200);
    });
    const again = await build({ config: { ...loadConfig(env), webDir: null } });
    try {
      const log = await again.db
        .selectFrom('account_activity')
        .select(['message', 'actor_id'])
        .where('user_id', '=', row.id)
        .execute();
      expect(log).toEqual([{ message: 'Account confirmed with the admin CLI', actor_id: null }]);
    } finally {
      await again.close();
    }
  });

  it.each([
    [
      ['reset-password', '--email', 'nobody@example.com', '--password', 'long enough pw'],
      1,
      /No user/,
    ],
    [['confirm-user', '--email', 'nobody@example.com'], 1, /No user/],
    [['confirm-user', '--email', 'a@example.com', '--password', 'long enough pw'], 2, /Usage/],
    [[], 2, /Usage/],
    [['drop-tables', '--email', 'a@example.com'], 2, /Usage/],
    [['create-admin'], 2, /Usage/],
    [['create-admin', '--email', 'not an email'], 2, /Not an email/],
    [['create-admin', '--email', 'a@example.com', '--password', 'short'], 2, /At least 10/],
    [['create-admin', '--email', 'a@example.com', '--bogus'], 2, /Unknown option/],
  ])('%j exits %i', async (argv, status, message) => {
    expect(await cli(...argv)).toBe(status);
    expect(err.join('\n')).toMatch(message);
  });
});
