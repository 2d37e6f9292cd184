/**
 * A domain's Dovecot passwd-file (`user:pass:uid:gid:gecos:home:shell:extra`), pure. uid, gid and
 * home come from the userdb's default_fields; the gecos field carries the panel's id
 * (`stackdeck-<id>`), so a line of another mailbox is never taken for this one; the extra field
 * holds the quota (`userdb_quota_rule=*:storage=<N>M`, 0: none).
 */

export interface MailboxEntry {
  id: number;
  local: string;
  /** The PHC string without Dovecot's `{ARGON2ID}` prefix. */
  hash: string;
  quotaMb: number;
}

const marker = (id: number) => `stackdeck-${id}`;

export function renderPasswdLine(m: MailboxEntry): string {
  // storage=0 is no limit for Dovecot's quota.
  return `${m.local}:{ARGON2ID}${m.hash}:::${marker(m.id)}:::userdb_quota_rule=*:storage=${m.quotaMb}M`;
}

export function renderPasswd(entries: readonly MailboxEntry[]): string {
  return entries.map((m) => `${renderPasswdLine(m)}\n`).join('');
}

/** The panel's lines of a file; a line not ours (no marker) is dropped with a count. */
export function parsePasswd(text: string): MailboxEntry[] {
  const out: MailboxEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length < 8) continue;
    const id = /^stackdeck-(\d+)$/.exec(f[4] ?? '');
    const hash = /^\{ARGON2ID\}(.+)$/.exec(f[1] ?? '');
    if (!id || !hash) continue;
    const quota = /userdb_quota_rule=\*:storage=(\d+)M/.exec(f.slice(7).join(':'));
    out.push({
      id: Number(id[1]),
      local: f[0]!,
      hash: hash[1]!,
      quotaMb: quota ? Number(quota[1]) : 0,
    });
  }
  return out;
}

export interface MailboxChange {
  id: number;
  local: string;
  password_hash: string | null;
  quota_mb: number;
}

/**
 * The file's entries after these changes: each in place (by local part) or at the end; a line
 * of the same id under another local part goes (a rename). Throws `{field, message}` problems
 * as an array: a local part held by another id, a new mailbox without a password.
 */
export function mergeMailboxes(
  current: readonly MailboxEntry[],
  changes: readonly MailboxChange[],
): { entries: MailboxEntry[]; problems: { field: string; message: string }[] } {
  const byLocal = new Map(current.map((m) => [m.local, m]));
  const problems: { field: string; message: string }[] = [];
  const changedIds = new Set(changes.map((c) => c.id));
  const next = new Map<string, MailboxEntry>();
  for (const m of current)
    if (!changedIds.has(m.id) || changes.some((c) => c.id === m.id && c.local === m.local))
      next.set(m.local, m);
  for (const c of changes) {
    const same = byLocal.get(c.local);
    if (same && same.id !== c.id) {
      problems.push({ field: 'local', message: `The server has another mailbox ${c.local}` });
      continue;
    }
    // A rename (same id, new local part) keeps the hash too.
    const hash = c.password_hash ?? same?.hash ?? current.find((m) => m.id === c.id)?.hash;
    if (!hash) {
      problems.push({
        field: 'password',
        message: `The server does not have ${c.local}: give it a new password`,
      });
      continue;
    }
    next.set(c.local, { id: c.id, local: c.local, hash, quotaMb: c.quota_mb });
  }
  return { entries: [...next.values()], problems };
}
