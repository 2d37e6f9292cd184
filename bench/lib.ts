import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { loadConfig } from '../server/config';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/**
 * Loads a URL with autocannon in a child process, so the client does not share the panel's
 * event loop (the machine has two cores: one for each).
 */
export function autocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<LoadResult> {
  const args = ['autocannon', '--json', '-c', '20', '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const json = JSON.parse(out) as {
        requests: { average: number };
        latency: { p99: number };
        errors: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: json.requests.average,
        p99Ms: json.latency.p99,
        errors: json.errors + json.non2xx,
      });
    });
  });
}

/** A panel on a throwaway data dir with one signed-in user. */
export async function panelWithUser(options: { webDir: string | null }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackdeck-bench-'));
  const config = { ...loadConfig({}), dataDir, webDir: options.webDir, authRateLimit: 1000 };
  const app = await build({ config });
  const user = await app.services.users.create({
    email: 'bench@example.com',
    user_name: 'Bench',
    password_hash: await hashPassword('bench password 1'),
    confirmed: true,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/users/login',
    payload: { email: 'bench@example.com', password: 'bench password 1' },
  });
  const token = (login.json() as { Token: string }).Token;
  return {
    app,
    userId: user.id,
    token,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
