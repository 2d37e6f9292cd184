/**
 * The stackdeck_sso plugin on the server: its code in the app's plugins/ folder, its settings in
 * the app's private folder, the plugin named in config.inc.php. Everything is written as the
 * app's user (root never writes into a folder the user controls); the master secret is read by
 * root from mail's own file and reaches only the settings file (0600, the app's PHP user's).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { OpError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { asUser, mustAsUser } from '../installers/agentApi';
import { MASTER_SECRET, MASTER_USER } from '../mail/agentApi';
import {
  NONCES_DIR,
  PLUGIN,
  PLUGIN_PHP,
  PRIVATE_DIR,
  SETTINGS_FILE,
  TOKEN_PHP,
  enablePlugin,
  renderSettings,
} from './ssoPlugin';

/** The server's Dovecot master secret, or '' while mail has never been enabled. */
async function masterPass(): Promise<string> {
  const text = await fs.readFile(MASTER_SECRET, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text.trim();
}

/** The file as the user reads it, or null when it is not there (or not readable to them). */
async function readAs(user: PasswdEntry, file: string): Promise<string | null> {
  const res = await asUser(user, 'cat', ['--', file]);
  return res.code === 0 ? res.stdout : null;
}

/**
 * Writes the file as the user when its text differs: a new file of `mode` beside it, then
 * renamed over it, so PHP never reads half of one. True when it wrote.
 */
async function put(user: PasswdEntry, file: string, text: string, mode: string): Promise<boolean> {
  if ((await readAs(user, file)) === text) return false;
  const tmp = `${file}.stackdeck-new`;
  await mustAsUser(user, 'install', ['-m', mode, '/dev/null', tmp]);
  await mustAsUser(user, 'tee', ['--', tmp], { input: text });
  await mustAsUser(user, 'mv', ['-fT', '--', tmp, file]);
  return true;
}

async function privateDir(user: PasswdEntry, dir: string): Promise<void> {
  await mustAsUser(user, 'mkdir', ['-p', '-m', '0700', '--', dir]);
  await mustAsUser(user, 'chmod', ['0700', '--', dir]);
}

/**
 * Ships the plugin into the Roundcube app at `dir` with the panel's key for app `appId`, and
 * enables it. Idempotent: `changed` is false when everything was so already.
 */
export async function installSso(
  user: PasswdEntry,
  dir: string,
  appId: number,
  key: string,
): Promise<{ changed: boolean; mail: boolean }> {
  const marker = await fs
    .lstat(path.join(dir, 'program', 'include', 'iniset.php'))
    .catch(() => null);
  if (!marker?.isFile()) throw new OpError('not_found', `${dir} holds no Roundcube`);
  const master = await masterPass();
  let changed = false;

  const own = path.join(dir, PRIVATE_DIR);
  await privateDir(user, own);
  await privateDir(user, path.join(own, NONCES_DIR));
  const settings = renderSettings({
    key,
    app: appId,
    master_user: MASTER_USER,
    master_pass: master,
  });
  const settingsFile = path.join(own, SETTINGS_FILE);
  changed = (await put(user, settingsFile, settings, '0600')) || changed;
  // Ours alone: whatever mode it was given since, it is the app's PHP user's only.
  await mustAsUser(user, 'chmod', ['0600', '--', settingsFile]);

  const code = path.join(dir, 'plugins', PLUGIN);
  await mustAsUser(user, 'mkdir', ['-p', '-m', '0755', '--', code]);
  changed = (await put(user, path.join(code, 'token.php'), TOKEN_PHP, '0644')) || changed;
  changed = (await put(user, path.join(code, `${PLUGIN}.php`), PLUGIN_PHP, '0644')) || changed;

  const configFile = path.join(dir, 'config', 'config.inc.php');
  const config = await readAs(user, configFile);
  if (config === null) throw new OpError('not_found', `${configFile} is missing`);
  const enabled = enablePlugin(config);
  if (enabled !== null) changed = (await put(user, configFile, enabled, '0640')) || changed;
  return { changed, mail: master !== '' };
}
