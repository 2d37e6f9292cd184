import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  FastifyInstance,
  InjectOptions,
  LightMyRequestResponse as LightResponse,
} from 'fastify';
import pg from 'pg';
import { type BuildOptions, build } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { type Config, loadConfig } from '../../server/config';
import { readMail, startSmtp } from './smtp';

/** The dialect this run of the API suite uses (set per Vitest project). */
export const dialect = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** A new, empty PostgreSQL database for one test file; `drop` removes it. */
export async function createPostgresDatabase(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const adminUrl = process.env.TEST_POSTGRES_URL!;
  const name = `sd_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
}

export interface TestApp {
  readonly app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
  /** Closes the panel and builds it again on the same data dir and database. */
  restart(): Promise<void>;
  /** A confirmed user signed in through the real login call. */
  user(options?: {
    admin?: boolean;
    staff?: boolean;
    email?: string;
    password?: string;
    /** The plan in force (`users.plan_id`); a new account's, 1 Trial, by default. */
    plan?: number;
  }): Promise<TestUser>;
  login(email: string, password: string): Promise<string>;
  /** An impersonation token: the admin acting as the user (POST admin/act-as/users/{uid}). */
  actAs(adminToken: string, uid: number): Promise<string>;
  call(
    method: InjectOptions['method'],
    url: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      /** The client's socket address (default 127.0.0.1). */
      ip?: string;
    },
  ): Promise<LightResponse>;
  /** The newest mail to an address, as its recipient got it (the outbox masks codes). */
  lastMail(to: string): Promise<{ subject: string; text_body: string } | undefined>;
  codeIn(to: string): Promise<string>;
}

let counter = 0;

/**
 * A panel on a fresh database (SQLite file or a new PostgreSQL database) and data dir.
 * `options` passes a clock (sessions and codes) or a logger through to build().
 */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  options: Pick<BuildOptions, 'clock' | 'logger' | 'maxOpTimeoutMs' | 'jobs'> = {},
): Promise<TestApp> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-test-'));
  const pgDb = dialect === 'postgres' ? await createPostgresDatabase() : null;
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: pgDb?.url ?? null,
    webDir: null,
    authRateLimit: 1000,
    publicUrl: 'http://panel.test',
    ...overrides,
  };
  // The outbox keeps codes and links masked: tests read mail where a user would, in the mailbox
  // of a real SMTP server (unless the test names its own SMTP_URL or none).
  const mailbox = 'smtpUrl' in overrides ? null : await startSmtp();
  if (mailbox) config.smtpUrl = mailbox.url;
  let app = await build({ config, ...options });
  await app.ready();

  const call: TestApp['call'] = (method, url, options = {}) =>
    app.inject({
      method,
      url,
      remoteAddress: options.ip,
      payload: options.body as InjectOptions['payload'],
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
    });

  const login = async (email: string, password: string) => {
    const res = await call('POST', '/api/v1/users/login', { body: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { Token: string }).Token;
  };

  const actAs = async (adminToken: string, uid: number) => {
    const res = await call('POST', `/api/v1/admin/act-as/users/${uid}`, { token: adminToken });
    if (res.statusCode !== 200) throw new Error(`act-as failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { Token: string }).Token;
  };

  const lastMail: TestApp['lastMail'] = async (to) => {
    if (!mailbox)
      return app.db
        .selectFrom('outbox')
        .select(['subject', 'text_body'])
        .where('to_addr', '=', to)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    await app.services.mailer.flush();
    // Deliveries run in parallel and may arrive out of order: the newest mail is the one the
    // outbox wrote last (its subject), as the recipient got it.
    const newest = await app.db
      .selectFrom('outbox')
      .select('subject')
      .where('to_addr', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const mails = mailbox.received.map(readMail);
    const mail = mails
      .reverse()
      .find(
        (m) =>
          m.to.some((a) => a.toLowerCase() === to.toLowerCase()) &&
          (!newest || m.subject === newest.subject),
      );
    return mail && { subject: mail.subject, text_body: mail.text };
  };

  return {
    get app() {
      return app;
    },
    config,
    async restart() {
      await app.close();
      app = await build({ config, ...options });
      await app.ready();
    },
    call,
    login,
    actAs,
    lastMail,
    async codeIn(to) {
      const mail = await lastMail(to);
      const code = mail && /\b(\d{6})\b/.exec(mail.text_body)?.[1];
      if (!code) throw new Error(`no code mailed to ${to}`);
      return code;
    },
    async user(options = {}) {
      counter += 1;
      const email = options.email ?? `user${counter}-${randomUUID().slice(0, 6)}@example.com`;
      const password = options.password ?? 'a long enough password';
      const row = await app.services.users.create({
        email,
        user_name: `User ${counter}`,
        password_hash: await hashPassword(password),
        is_admin: options.admin,
        confirmed: true,
      });
      if (options.staff) await app.services.users.update(row.id, { is_admin_staff: 1 });
      if (options.plan !== undefined)
        await app.db
          .updateTable('users')
          .set({ plan_id: options.plan })
          .where('id', '=', row.id)
          .execute();
      return { id: row.id, email, password, token: await login(email, password) };
    },
    async close() {
      await app.close();
      await pgDb?.drop();
      await mailbox?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
