// Bundles the agent into one file the panel serves (GET /agent/stackdeck-agent.mjs).
import { build } from 'esbuild';

await build({
  entryPoints: ['agent/main.ts'],
  outfile: process.env.AGENT_OUT_FILE ?? 'dist/agent/stackdeck-agent.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  minify: true,
  legalComments: 'none',
  // socket.io-client's optional native add-ons are not needed by Node's own websocket client.
  external: ['bufferutil', 'utf-8-validate'],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
