import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { DOMAINS_DIR, passwdFile } from './agentConfigs';
import type { DomainState, Forward } from './agentMapsRender';
import { type MailboxEntry, parsePasswd, renderPasswd } from './agentPasswd';

/**
 * What the agent keeps of each domain, under /etc/stackdeck/mail/domains/<d>/: `passwd`
 * (Dovecot's, 0640 root:dovecot) and `forwards.json` (root's), from which every Postfix map is
 * rendered again.
 */

const DOMAIN_NAME = /^[a-z0-9.-]+$/;

let dovecotGid: number | null = null;
async function dovecotGroup(): Promise<number> {
  if (dovecotGid !== null) return dovecotGid;
  const text = await fs.readFile('/etc/group', 'utf8');
  const line = text.split('\n').find((l) => l.startsWith('dovecot:'));
  if (!line) throw new Error('The dovecot group is missing: enable mail first');
  dovecotGid = Number(line.split(':')[2]);
  return dovecotGid;
}

export async function domainExists(domain: string): Promise<boolean> {
  return (await fs.stat(passwdFile(domain)).catch(() => null)) !== null;
}

export async function listDomains(): Promise<string[]> {
  const names = await fs.readdir(DOMAINS_DIR).catch(() => [] as string[]);
  return names.filter((n) => DOMAIN_NAME.test(n)).sort();
}

export async function readMailboxes(domain: string): Promise<MailboxEntry[]> {
  return parsePasswd(await fs.readFile(passwdFile(domain), 'utf8').catch(() => ''));
}

/**
 * Dovecot re-reads the file when its mtime (whole seconds) or size changed: a new password
 * (same length) or quota (0M to 1M) written within the second of the last write would go
 * unseen, so the new file's mtime is always a second past the old one's.
 */
export async function writeMailboxes(domain: string, entries: MailboxEntry[]): Promise<void> {
  const file = passwdFile(domain);
  const before = await fs.stat(file).catch(() => null);
  await writeFileAtomic(file, renderPasswd(entries), 0o640, { uid: 0, gid: await dovecotGroup() });
  if (!before) return;
  const old = Math.floor(before.mtimeMs / 1000);
  if (Math.floor(Date.now() / 1000) > old) return;
  await fs.utimes(file, old + 1, old + 1);
}

export async function makeDomainDir(domain: string): Promise<void> {
  const dir = `${DOMAINS_DIR}/${domain}`;
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  await fs.chown(dir, 0, await dovecotGroup());
  if (!(await domainExists(domain))) await writeMailboxes(domain, []);
}

const forwardsFile = (domain: string) => `${DOMAINS_DIR}/${domain}/forwards.json`;

export async function readForwards(domain: string): Promise<Forward[]> {
  const text = await fs.readFile(forwardsFile(domain), 'utf8').catch(() => '[]');
  return JSON.parse(text) as Forward[];
}

/** Writes the domain's forwards; false (and nothing written) when they are the same. */
export async function writeForwards(domain: string, forwards: Forward[]): Promise<boolean> {
  const text = `${JSON.stringify(forwards)}\n`;
  if ((await fs.readFile(forwardsFile(domain), 'utf8').catch(() => null)) === text) return false;
  await writeFileAtomic(forwardsFile(domain), text, 0o600);
  return true;
}

export async function readAllDomains(): Promise<DomainState[]> {
  const out: DomainState[] = [];
  for (const domain of await listDomains()) {
    const locals = (await readMailboxes(domain)).map((m) => m.local);
    out.push({ domain, locals, forwards: await readForwards(domain) });
  }
  return out;
}
