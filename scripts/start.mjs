// `npm start`: builds what is missing or stale, then runs the panel.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const sources = Math.max(...['server', 'resources', 'src', 'dataProvider', 'agent'].map(newest));
const built = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
if (
  ['dist/web/index.html', 'dist/server/main.mjs', 'dist/agent/stackdeck-agent.mjs'].some(
    (f) => built(f) < sources,
  )
) {
  console.log('Building Stackdeck (first start or changed sources)...');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
}
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
