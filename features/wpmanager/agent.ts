import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OpError } from '../../agent/lib/opError';
import type { PasswdEntry } from '../../agent/lib/users';
import { defineAgentFeature } from '../../agent/ops/types';
import { appUser, asUser, mustAsUser, writeAsUser } from '../installers/agentApi';
import { listingProblem, parseZipListing } from '../releases/api';
import { appDir, docRoot } from '../webapps/api';
import { type WpActionArgs, type WpActionResult, ops } from './resource';
import { MANAGE_SCRIPT } from './script';

/** A plugin's zip unpacks to a few thousand files at most. */
const PLUGIN_LIMITS = { maxFiles: 20_000, maxBytes: 512 * 1024 ** 2 };
const OP_CODES = new Set(['invalid', 'not_found', 'conflict', 'failed']);

interface Site {
  user: PasswdEntry;
  dir: string;
  root: string;
  php: string;
}

/** Runs one action of the script as the site's user; its answer is its last output line. */
async function manage(site: Site, action: string, input: unknown): Promise<WpActionResult> {
  const script = path.join(site.dir, `.stackdeck-wpmanage-${randomBytes(6).toString('hex')}.php`);
  await writeAsUser(site.user, script, MANAGE_SCRIPT);
  try {
    const res = await asUser(site.user, site.php, ['-d', 'display_errors=stderr', script], {
      input: JSON.stringify({ root: site.root, action, input }),
      cwd: site.root,
    });
    const last = res.stdout.trim().split('\n').at(-1) ?? '';
    let answer: { ok?: WpActionResult; error?: string; code?: string; field?: string | null };
    try {
      answer = JSON.parse(last) as typeof answer;
    } catch {
      throw new OpError(
        'failed',
        `WordPress said: ${(res.stderr || res.stdout).trim().slice(-600)}`,
      );
    }
    if (answer.ok) return answer.ok;
    const code = OP_CODES.has(answer.code ?? '') ? answer.code : 'failed';
    throw new OpError(
      code as 'failed',
      answer.error ?? 'WordPress refused',
      answer.field ?? undefined,
    );
  } finally {
    await asUser(site.user, 'rm', ['-f', '--', script]);
  }
}

/**
 * A plugin from a zip: its listing checked before anything is unpacked (one top folder, no
 * links, no absolute or `..` paths), unpacked as the user beside the plugins and moved in
 * place of the plugin's folder (an update replaces it whole). The zip is written by root into
 * a private folder of its own, then handed to the user: nothing the user controls is followed.
 */
async function uploadPlugin(site: Site, zipBase64: string): Promise<WpActionResult> {
  const plugins = path.join(site.root, 'wp-content', 'plugins');
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'stackdeck-plugin-'));
  const zip = path.join(tmp, 'plugin.zip');
  const unpack = path.join(plugins, `.stackdeck-upload-${randomBytes(6).toString('hex')}`);
  try {
    await fs.writeFile(zip, Buffer.from(zipBase64, 'base64'), { mode: 0o400 });
    await fs.chown(zip, site.user.uid, site.user.gid);
    await fs.chmod(tmp, 0o711);
    const listing = await asUser(site.user, 'unzip', ['-Z', zip]);
    if (listing.code !== 0) throw new OpError('invalid', 'The file is not a zip archive', 'zip');
    const entries = parseZipListing(listing.stdout);
    const problem = listingProblem(entries, PLUGIN_LIMITS);
    if (problem) throw new OpError('invalid', problem, 'zip');
    const tops = new Set(entries.map((e) => e.path.split('/')[0]!));
    const top = [...tops][0]!;
    if (
      tops.size !== 1 ||
      !entries.some((e) => e.path.startsWith(`${top}/`)) ||
      top.startsWith('.')
    )
      throw new OpError('invalid', "A plugin's zip holds one folder, the plugin's", 'zip');
    await mustAsUser(site.user, 'mkdir', ['-p', '--', plugins]);
    await mustAsUser(site.user, 'mkdir', ['--', unpack]);
    await mustAsUser(site.user, 'unzip', ['-q', '-o', zip, '-d', unpack]);
    // The version there (an update) waits beside the new one until the new one is a plugin.
    const target = path.join(plugins, top);
    const previous = path.join(unpack, '.previous');
    const had = (await asUser(site.user, 'test', ['-e', target])).code === 0;
    if (had) await mustAsUser(site.user, 'mv', ['-T', '--', target, previous]);
    await mustAsUser(site.user, 'mv', ['-T', '--', path.join(unpack, top), target]);
    const after = await manage(site, 'plugins.list', {});
    if (!after.plugins?.some((p) => p.plugin.startsWith(`${top}/`))) {
      await mustAsUser(site.user, 'rm', ['-rf', '--', target]);
      if (had) await mustAsUser(site.user, 'mv', ['-T', '--', previous, target]);
      throw new OpError('invalid', 'The zip holds no WordPress plugin (no plugin header)', 'zip');
    }
    return after;
  } finally {
    await asUser(site.user, 'rm', ['-rf', '--', unpack]);
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

export const agent = defineAgentFeature(ops, {
  ops: {
    async 'wp.manage'(args: WpActionArgs) {
      const user = await appUser(args.user);
      const dir = appDir(user.home, args.app);
      const root = docRoot(user.home, { name: args.app, web_root: args.web_root });
      const found = await fs.lstat(path.join(root, 'wp-load.php')).catch(() => null);
      if (!found?.isFile()) throw new OpError('conflict', `No WordPress in ${root}`);
      const site = { user, dir, root, php: `/usr/bin/php${args.php_version}` };
      if (args.action === 'plugins.upload') return uploadPlugin(site, args.input.zip);
      return manage(site, args.action, args.input);
    },
  },
  locks: {
    // Reads too: a run must not see a half-written wp-config.php or plugin folder.
    'wp.manage': (args) => [`webapp:${args.app}`],
  },
});
