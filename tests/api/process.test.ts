import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialect } from './helpers';
import { waitFor } from '../waitFor';

/**
 * The panel as `npm start` runs it (server/main.ts in its own process): first start prints the
 * admin login once, /healthz answers, SIGTERM lets a request in flight finish and exits 0, and a
 * restart on the same data keeps the admin.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-process-'));

afterAll(() => {
  keepAlive.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

interface Panel {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startPanel(): Promise<Panel> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_DIR: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      SMTP_URL: '',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = Date.now();
  while (!text.includes('Stackdeck is running')) {
    if (child.exitCode !== null) throw new Error(`the panel exited: ${text}`);
    if (Date.now() - started > 20_000) throw new Error(`the panel did not start: ${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, port, output: () => text, exited };
}

/** The panel's JSON log lines so far (whole lines: the last may still be coming). */
function logLines(panel: Panel) {
  return panel
    .output()
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; signal?: string; req?: { url?: string } });
}

/** True when a new connection to the port is refused: nothing listens there any more. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.connect({ host: '127.0.0.1', port });
    probe.once('connect', () => (probe.destroy(), resolve(false)));
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** A client that keeps its connections open for a minute, as a browser may. */
const keepAlive = new http.Agent({ keepAlive: true, timeout: 60_000 });

/** A POST whose body is sent only when `release` is called: a request in flight. */
function slowLogin(port: number, body: string) {
  let release!: () => void;
  const response = new Promise<{ status: number; body: string; connection?: string }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          agent: keepAlive,
          method: 'POST',
          path: '/api/v1/users/login',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: text, connection: res.headers.connection }),
          );
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      release = () => req.end(body);
    },
  );
  return { response, release: () => release() };
}

// One run is enough: main.ts is the same on both dialects, and build() on PostgreSQL is what
// every other API file exercises. Starting the process costs seconds of CPU on a 2-core machine.
describe.runIf(dialect === 'sqlite')('the panel process', () => {
  let password = '';

  it('first start prints the admin login once, serves /healthz, stops cleanly on SIGTERM', async () => {
    const panel = await startPanel();
    try {
      const console = panel.output();
      expect(console).toContain(`Stackdeck is running: http://localhost:${panel.port}/login`);
      expect(console).toContain('admin email:    admin@localhost');
      // No SMTP_URL: codes reach no one and the outbox masks them; it says how others get in.
      expect(console).toMatch(
        /mail: {11}no SMTP_URL: [\s\S]*Admin → Users → Confirm[\s\S]*npx stackdeck confirm-user --email/,
      );
      password = /admin password: (\S+)/.exec(console)?.[1] ?? '';
      expect(password).toMatch(/^[\w-]{24}$/);
      // The generated password is on the console once and in no log line.
      expect(console.split(password)).toHaveLength(2);
      for (const line of console.split('\n').filter((l) => l.startsWith('{')))
        expect(line).not.toContain(password);

      const health = await fetch(`http://127.0.0.1:${panel.port}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });

      // A request in flight when SIGTERM arrives still gets its answer.
      const inFlight = slowLogin(
        panel.port,
        JSON.stringify({ email: 'admin@localhost', password }),
      );
      // In flight once the panel has its headers (it logs the request then, the body to come).
      await waitFor('the panel to take the login request in', () =>
        logLines(panel).some(
          (l) => l.msg === 'incoming request' && l.req?.url === '/api/v1/users/login',
        ),
      );
      panel.child.kill('SIGTERM');
      // The panel has begun to close: it logged the signal and takes no new connection.
      await waitFor('the panel to log the signal', () =>
        logLines(panel).some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'),
      );
      await waitFor('the panel to stop taking new connections', () => refused(panel.port), {
        timeoutMs: 10_000,
      });
      inFlight.release();
      const answer = await inFlight.response;
      expect(answer.status).toBe(200);
      expect(answer.connection).toBe('close');
      expect(JSON.parse(answer.body).User.is_admin).toBe(true);
      // Exit 0 is app.close() returning: main.ts's 10 s force-exit (exit 1) did not end it, so it
      // did not wait for the client to drop the finished request's keep-alive connection (held a
      // minute here).
      expect(await panel.exited).toBe(0);
    } finally {
      panel.child.kill('SIGKILL');
    }
  });

  it('a restart on the same data keeps the admin and prints no new password', async () => {
    const panel = await startPanel();
    try {
      expect(panel.output()).not.toContain('admin password');
      const res = await fetch(`http://127.0.0.1:${panel.port}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password }),
      });
      expect(res.status).toBe(200);
      panel.child.kill('SIGINT');
      expect(await panel.exited).toBe(0);
    } finally {
      panel.child.kill('SIGKILL');
    }
  });
});
