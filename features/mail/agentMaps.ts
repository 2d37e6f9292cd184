import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { writeFileAtomic } from '../../agent/lib/files';
import { hasSystemd, unitRunning } from '../../agent/lib/init';
import { OpError } from '../../agent/lib/opError';
import { MAPS_DIR } from './agentConfigs';
import { readAllDomains } from './agentState';
import { MAP_NAMES, type MapName, renderMaps } from './agentMapsRender';

const detail = (r: { stdout: string; stderr: string }) =>
  (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ');

/**
 * One map, atomically: `X.new` written and postmapped, its keys counted back (`postmap -s`),
 * then `X.new.db` renamed over `X.db` and `X.new` over `X`. Postfix never sees a half-built
 * table. Unchanged maps are left alone; whether this one changed.
 */
async function writeMap(name: MapName, text: string): Promise<boolean> {
  const file = `${MAPS_DIR}/${name}`;
  const now = await fs.readFile(file, 'utf8').catch(() => null);
  const haveDb = await fs.stat(`${file}.db`).catch(() => null);
  if (now === text && haveDb) return false;
  const next = `${file}.new`;
  await writeFileAtomic(next, text, 0o644);
  const made = await run('postmap', [`hash:${next}`]);
  if (made.code !== 0) throw new OpError('failed', `postmap ${name}: ${detail(made)}`);
  const dump = await run('postmap', ['-s', `hash:${next}`]);
  const want = text.split('\n').filter(Boolean).length;
  const got = dump.stdout.split('\n').filter(Boolean).length;
  if (dump.code !== 0 || got !== want)
    throw new OpError('failed', `postmap ${name}: ${got} of ${want} keys in the new table`);
  await fs.rename(`${next}.db`, `${file}.db`);
  await fs.rename(next, file);
  return true;
}

/**
 * The maps whose change needs `postfix reload`: the long-running trivial-rewrite keeps an old
 * vdomains (the first mail to a new domain would be refused), and cleanup's aliases are reloaded
 * with it. smtpd, which reads vmailboxes and sender_login, notices a changed table before its
 * next client (research mail.md s.3: a mailbox added to a known domain is accepted at once), so
 * a new mailbox costs no reload: 1,000 of them one by one would otherwise reload Postfix 1,000
 * times.
 */
const RELOAD_ON: readonly MapName[] = ['vdomains', 'valiases'];

/** Every map from the domains' state; Postfix reloaded when a map that needs it changed. */
export async function syncMaps(): Promise<void> {
  await fs.mkdir(MAPS_DIR, { recursive: true, mode: 0o755 });
  const maps = renderMaps(await readAllDomains());
  let reload = false;
  for (const name of MAP_NAMES)
    if ((await writeMap(name, maps[name])) && RELOAD_ON.includes(name)) reload = true;
  if (reload) await reloadPostfix();
}

export async function reloadPostfix(): Promise<void> {
  if (!(await unitRunning('postfix', await hasSystemd()))) return;
  const res = await run('postfix', ['reload']);
  if (res.code !== 0) throw new OpError('reload_failed', `postfix reload: ${detail(res)}`);
}
