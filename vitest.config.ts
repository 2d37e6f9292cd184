import net from 'node:net';
import { defineConfig } from 'vitest/config';

/** PostgreSQL runs the API suite a second time when one answers (this machine and CI have one). */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export default defineConfig(async () => {
  const pgUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const withPostgres = process.env.TEST_POSTGRES !== 'off' && (await reachable(pgUrl));
  if (!withPostgres) console.warn('PostgreSQL not reachable: the API suite runs on SQLite only');
  const api = (name: string, env: Record<string, string>) => ({
    test: {
      name,
      include: ['tests/api/**/*.test.ts'],
      env,
      // One module graph per worker, not per file: every API file imports the whole panel, and
      // re-evaluating it for each of 64 files was over half of the suite's time (170 s -> 69 s on
      // SQLite). Each file still builds its own app on its own fresh database (tests/api/helpers.ts).
      isolate: false,
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  });
  return {
    test: {
      projects: [
        { test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
        api('api-sqlite', { TEST_DB: 'sqlite' }),
        ...(withPostgres
          ? [api('api-postgres', { TEST_DB: 'postgres', TEST_POSTGRES_URL: pgUrl })]
          : []),
        {
          // Sandbox servers (scripts/sandbox): root on Debian. Run it on its own
          // (`vitest run --project system`): a sandbox boots a whole server, so two files run at
          // a time (each sandbox has its own namespaces, network and upper dir), and leftovers
          // of an earlier run are removed first.
          test: {
            name: 'system',
            include: ['tests/system/**/*.test.ts'],
            environment: 'node',
            testTimeout: 300_000,
            hookTimeout: 600_000,
            fileParallelism: true,
            maxWorkers: 2,
            globalSetup: ['scripts/sandbox/vitest-global-setup.ts'],
          },
        },
      ],
    },
  };
});
