// Bundles the panel (and its CLI) with esbuild; npm packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'server/main.ts', cli: 'server/cli.ts' },
  outdir: process.env.SERVER_OUT_DIR ?? 'dist/server',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
