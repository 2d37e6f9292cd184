import { run } from '../../agent/lib/exec';
import { VMAIL } from './agentConfigs';
import { readMailboxes } from './agentState';

/** `doveadm -f tab quota get`'s STORAGE row: value and limit in KiB (`-`: no limit). */
export function parseQuotaTab(text: string): { used: number | null; limit: number | null } {
  const rows = text
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const head = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const type = head.indexOf('type');
  const value = head.indexOf('value');
  const limit = head.indexOf('limit');
  const row = rows.slice(1).find((r) => r[type] === 'STORAGE');
  const num = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : null);
  return { used: num(row?.[value]), limit: num(row?.[limit]) };
}

/**
 * Per mailbox: `du -sb` of its folder (indexes included, the disk's figure) and Dovecot's own
 * count. Per user (`-u`): `-A` does not list users of per-domain passwd-files.
 */
export async function usage(domain: string) {
  const out = [];
  for (const m of await readMailboxes(domain)) {
    const du = await run('du', ['-sb', '--', `${VMAIL}/${domain}/${m.local}`]);
    const bytes = du.code === 0 ? Number(du.stdout.split('\t')[0]) || 0 : 0;
    const q = await run('doveadm', ['-f', 'tab', 'quota', 'get', '-u', `${m.local}@${domain}`]);
    const quota = q.code === 0 ? parseQuotaTab(q.stdout) : { used: null, limit: null };
    out.push({ local: m.local, bytes, quota_used_kib: quota.used, quota_limit_kib: quota.limit });
  }
  return out;
}
