import fs from 'node:fs/promises';
import { run } from './exec';

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
  /** The comment field; the panel marks the users it makes (see sysusers.create). */
  gecos: string;
}

/** One line of passwd(5): name:password:uid:gid:gecos:home:shell. */
export function parsePasswdLine(line: string): PasswdEntry | undefined {
  const f = line.split(':');
  if (f.length < 7 || !f[0]) return undefined;
  const uid = Number(f[2]);
  const gid = Number(f[3]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) return undefined;
  return { name: f[0], uid, gid, gecos: f[4]!, home: f[5]!, shell: f[6]! };
}

export function parsePasswd(text: string): PasswdEntry[] {
  return text
    .split('\n')
    .map(parsePasswdLine)
    .filter((e): e is PasswdEntry => e !== undefined);
}

/** The first uid of regular users on Debian (UID_MIN); nobody (65534) is not one. */
export const UID_MIN = 1000;
export const NOBODY_UID = 65534;

/** A regular account: the only kind the panel lists, changes or deletes. */
export function isRegularUser(entry: PasswdEntry): boolean {
  return entry.uid >= UID_MIN && entry.uid !== NOBODY_UID && entry.name !== 'nobody';
}

/** getent, so that the name service (not only /etc/passwd) answers. */
export async function lookupUser(name: string): Promise<PasswdEntry | undefined> {
  const res = await run('getent', ['passwd', name]);
  if (res.code !== 0) return undefined;
  return parsePasswdLine(res.stdout.trim());
}

export async function allUsers(): Promise<PasswdEntry[]> {
  const res = await run('getent', ['passwd']);
  if (res.code === 0) return parsePasswd(res.stdout);
  return parsePasswd(await fs.readFile('/etc/passwd', 'utf8'));
}

export async function groupExists(name: string): Promise<boolean> {
  return (await run('getent', ['group', name])).code === 0;
}

/** `quota -w -u NAME` for one filesystem: blocks, soft and hard limits in KiB. */
export function parseQuotaReport(
  text: string,
): { blocks: number; soft: number; hard: number } | undefined {
  const lines = text.split('\n').map((l) => l.trim());
  const header = lines.findIndex((l) => /^Filesystem\s+blocks/i.test(l));
  if (header < 0) return undefined;
  const row = lines[header + 1];
  if (!row) return undefined;
  const fields = row.split(/\s+/);
  // Filesystem blocks quota limit grace files ...: blocks may carry a '*' when over quota.
  const [blocks, soft, hard] = [fields[1], fields[2], fields[3]].map((v) =>
    Number(String(v).replace(/\*$/, '')),
  );
  if ([blocks, soft, hard].some((n) => n === undefined || !Number.isFinite(n))) return undefined;
  return { blocks: blocks!, soft: soft!, hard: hard! };
}

/** Whether mount options carry user quotas (usrquota, usrjquota=..., quota). */
export function hasUserQuota(options: string): boolean {
  return options
    .split(',')
    .some((o) => o === 'usrquota' || o === 'quota' || o.startsWith('usrjquota='));
}

/** The mount point holding path, when its filesystem has user quotas on. */
export async function quotaMount(path: string): Promise<string | undefined> {
  const res = await run('findmnt', ['-n', '-o', 'TARGET,OPTIONS', '--target', path]);
  if (res.code !== 0) return undefined;
  const [target, options = ''] = res.stdout.trim().split(/\s+/);
  return target && hasUserQuota(options) ? target : undefined;
}

/** Quotas of a user in MB, or nulls when the home's filesystem has none. */
export async function userQuota(
  entry: PasswdEntry,
): Promise<{ quota_hard: number | null; quota_soft: number | null }> {
  const mount = await quotaMount(entry.home);
  if (!mount) return { quota_hard: null, quota_soft: null };
  const res = await run('quota', ['-w', '-u', entry.name, '-f', mount]);
  const report = parseQuotaReport(res.stdout);
  // "none": quotas on, no limit for this user.
  if (!report) return { quota_hard: 0, quota_soft: 0 };
  return {
    quota_hard: Math.round(report.hard / 1024),
    quota_soft: Math.round(report.soft / 1024),
  };
}
