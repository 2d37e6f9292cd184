#!/usr/bin/env node
// The admin CLI; runs the bundled build (npm run build:server makes it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/server/cli.mjs', import.meta.url));
if (!existsSync(bundle)) {
  console.error('Build the panel first: npm run build');
  process.exit(1);
}
const { runCli } = await import(bundle);
process.exit(await runCli(process.argv.slice(2)));
