import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../scripts/sandbox/index';
import { type TestApp, buildTestApp } from '../../api/helpers';

/**
 * A real panel in the test process (SQLite, listening on 127.0.0.1), a user who signed up
 * through the API, and sandbox servers installed with the panel's own install command: the
 * real agent, bundled for this run, connected through the sandbox's panel forward.
 */
export interface Panel {
  t: TestApp;
  url: string;
  uid: number;
  token: string;
  /** api/v1 call as the user; path without the /api/v1/ prefix. */
  api(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    p: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');

export async function startPanel(
  /** The panel's clock (a test moves it instead of waiting), its configuration. */
  options: { clock?: () => number; config?: Parameters<typeof buildTestApp>[0] } = {},
): Promise<Panel> {
  // The agent bundle of this very tree, built for the run.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-system-'));
  const bundle = path.join(dir, 'stackdeck-agent.mjs');
  await run(process.execPath, [path.join(REPO, 'scripts/build-agent.mjs')], {
    cwd: REPO,
    env: { ...process.env, AGENT_OUT_FILE: bundle },
  });
  const t = await buildTestApp(
    { agentBundle: bundle, ...options.config },
    options.clock ? { clock: options.clock } : {},
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  t.app.config.publicUrl = url;

  // Sign up, confirm with the mailed code, sign in: all through the API.
  const email = `ops-${Date.now()}@example.com`;
  const password = 'a long enough password';
  const reg = await t.call('POST', '/api/v1/users', {
    body: { user_name: 'Ops Tester', email, password },
  });
  if (reg.statusCode !== 201) throw new Error(`sign-up: ${reg.statusCode} ${reg.body}`);
  const { uuid, id } = (await t.app.services.users.findByEmail(email))!;
  const confirm = await t.call('POST', '/api/v1/users/confirm', {
    body: { uuid, code: await t.codeIn(email) },
  });
  if (confirm.statusCode !== 200) throw new Error(`confirm: ${confirm.statusCode} ${confirm.body}`);
  const token = await t.login(email, password);

  return {
    t,
    url,
    uid: id,
    token,
    api: (method, p, body) => t.call(method, `/api/v1/${p}`, { token, body }),
    async close() {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ServerRecord {
  id: number;
  uuid: string;
  name: string;
  connected: boolean;
}

/** A server record and its one-line install command, as the connect page gets them. */
export async function createServer(
  panel: Panel,
  name: string,
): Promise<{ server: ServerRecord; command: string }> {
  const res = await panel.api('POST', `servers/users/${panel.uid}?action=create`, { name });
  if (res.statusCode !== 200) throw new Error(`create server: ${res.statusCode} ${res.body}`);
  const server = res.json() as ServerRecord;
  const script = await panel.api(
    'POST',
    `servers/users/${panel.uid}?action=script&sid=${server.id}`,
  );
  if (script.statusCode !== 200) throw new Error(`script: ${script.statusCode} ${script.body}`);
  return { server, command: (script.json() as { command: string }).command };
}

export async function serverRecord(panel: Panel, sid: number): Promise<ServerRecord> {
  const res = await panel.api('GET', `servers/${sid}/users/${panel.uid}`);
  if (res.statusCode !== 200) throw new Error(`get server: ${res.statusCode} ${res.body}`);
  return res.json() as ServerRecord;
}

export async function waitConnected(
  panel: Panel,
  sid: number,
  connected = true,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await serverRecord(panel, sid)).connected !== connected) {
    if (Date.now() > deadline)
      throw new Error(
        `server ${sid} not ${connected ? 'connected' : 'offline'} in ${timeoutMs} ms`,
      );
    await sleep(200);
  }
}

/**
 * A sandbox that ran the install command exactly as a user would (`curl ... | bash` as root),
 * with its server connected to the panel.
 */
export async function installedSandbox(
  panel: Panel,
  name: string,
  services: string[],
  options: Pick<SandboxOptions, 'quota' | 'homeSizeMb'> = {},
): Promise<{ sb: Sandbox; server: ServerRecord }> {
  const { server, command } = await createServer(panel, name);
  const sb = await startSandbox({ panel: panel.url, services, ...options });
  try {
    const res = await sb.exec(['bash', '-c', command], { timeoutMs: 120_000 });
    if (res.code !== 0) throw new Error(`install command failed:\n${res.stdout}${res.stderr}`);
    await waitConnected(panel, server.id);
    return { sb, server: await serverRecord(panel, server.id) };
  } catch (error) {
    await sb.stop();
    throw error;
  }
}

/** The activity log of a server, newest first. */
export async function activity(
  panel: Panel,
  sid: number,
): Promise<{ message: string; status: string; error: string | null }[]> {
  const res = await panel.api('GET', `activity/servers/${sid}/users/${panel.uid}?perPage=200`);
  if (res.statusCode !== 200) throw new Error(`activity: ${res.statusCode} ${res.body}`);
  const body = res.json() as { data: { message: string; status: string; error: string | null }[] };
  return body.data;
}
