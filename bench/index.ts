/**
 * `npm run bench`: the figures the issues ask for, from one run. Not a test: it prints.
 */
import { apiThroughput } from './api-throughput';
import { loginBundle } from './login-bundle';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  console.log('Stackdeck benchmarks\n');

  const api = await apiThroughput();
  console.log(
    'API: authenticated GET users/{id} vs a bare Fastify route (same process, autocannon -c 20)',
  );
  console.log(
    `  authenticated: ${api.authed.requestsPerSecond.toFixed(0)} req/s (p99 ${api.authed.p99Ms} ms)`,
  );
  console.log(
    `  bare route:    ${api.plain.requestsPerSecond.toFixed(0)} req/s (p99 ${api.plain.p99Ms} ms)`,
  );
  console.log(`  ratio:         ${api.ratio.toFixed(2)}   (aim: >= 0.5)\n`);

  const bundle = await loginBundle();
  console.log('UI: JavaScript loaded to render /login (Chromium, gzipped)');
  for (const file of bundle.files) console.log(`  ${file.name.padEnd(48)} ${kb(file.gzipBytes)}`);
  console.log(
    `  total: ${kb(bundle.gzipBytes)} gzipped (${kb(bundle.rawBytes)} raw)   (aim: < 300 KB)`,
  );
  console.log(
    `  Monaco / recharts in it: ${bundle.forbidden.length ? bundle.forbidden.join(', ') : 'no'}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
