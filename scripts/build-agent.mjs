// Bundles the agent into one file the panel serves (GET /agent/stackdeck-agent.mjs). The panel
// computes the bundle's SHA-256 from the file it serves and puts it in each install script,
// which refuses any other download; the .sha256 file beside it is for checking by hand
// (`sha256sum -c stackdeck-agent.mjs.sha256` in its directory).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outfile = process.env.AGENT_OUT_FILE ?? 'dist/agent/stackdeck-agent.mjs';
await build({
  entryPoints: ['agent/main.ts'],
  outfile,
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
const sha256 = createHash('sha256').update(readFileSync(outfile)).digest('hex');
writeFileSync(`${outfile}.sha256`, `${sha256}  ${path.basename(outfile)}\n`);
