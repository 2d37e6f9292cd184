/**
 * A panel on a temporary SQLite install with one signed-in user, and a sandbox server
 * connected to it by its real install command, for the benchmarks that drive a real agent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { build } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { loadConfig } from '../server/config';
import { type Sandbox, startSandbox } from '../scripts/sandbox';

const AGENT_BUNDLE = 'dist/agent/stackdeck-agent.mjs';

export interface BenchServer {
  app: FastifyInstance;
  sandbox: Sandbox;
  userId: number;
  serverId: number;
  /** A call of the API as the user; throws on an error status. */
  api(method: string, url: string, body?: unknown): Promise<Record<string, unknown>>;
  /** `.../servers/{sid}/users/{uid}` after `prefix`. */
  path(prefix: string): string;
  close(): Promise<void>;
}

export async function startBenchServer(services: string[]): Promise<BenchServer> {
  if (!existsSync(AGENT_BUNDLE))
    execFileSync('node', ['scripts/build-agent.mjs'], { stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-'));
  const app = await build({
    config: { ...loadConfig({}), dataDir, webDir: null, agentBundle: path.resolve(AGENT_BUNDLE) },
  });
  const cleanups: (() => Promise<unknown>)[] = [
    async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    () => app.close(),
  ];
  const close = async () => {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    app.config.publicUrl = base;

    const user = await app.services.users.create({
      email: 'bench@example.com',
      user_name: 'Bench',
      password_hash: await hashPassword('bench password 1'),
      confirmed: true,
    });
    const token = await app.services.sessions.issue(user.id, {
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1/${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const server = await api('POST', `servers/users/${user.id}?action=create`, { name: 'bench' });
    const { command } = (await api(
      'POST',
      `servers/users/${user.id}?action=script&sid=${server.id}`,
    )) as { command: string };

    const sandbox = await startSandbox({ panel: base, services });
    cleanups.unshift(() => sandbox.stop());
    await sandbox.execOk(['bash', '-c', command], { timeoutMs: 300_000 });
    await sandbox.waitFor(async () => {
      const row = (await api('GET', `servers/${server.id}/users/${user.id}`)) as {
        connected?: boolean;
      };
      return row.connected ? true : undefined;
    }, 60_000);
    return {
      app,
      sandbox,
      userId: user.id,
      serverId: Number(server.id),
      api,
      path: (prefix) => `${prefix}/servers/${server.id}/users/${user.id}`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
