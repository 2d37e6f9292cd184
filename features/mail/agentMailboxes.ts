import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { MASTER_SECRET, VMAIL } from './agentConfigs';
import { syncMaps } from './agentMaps';
import { type MailboxChange, mergeMailboxes } from './agentPasswd';
import type { Forward } from './agentMapsRender';
import { domainExists, readMailboxes, writeForwards, writeMailboxes } from './agentState';
import { refreshAllVacations, setVacation } from './agentVacation';

const TRASH = `${VMAIL}/.trash`;
const KEEP_DAYS = 30;

export async function requireEnabled(): Promise<void> {
  // mail.enable makes the master secret, mail.disable removes it.
  if (!(await fs.stat(MASTER_SECRET).catch(() => null)))
    throw new OpError('failed', 'Mail is not enabled on this server');
}

export async function requireDomain(domain: string): Promise<void> {
  await requireEnabled();
  if (!(await domainExists(domain)))
    throw opFieldError('domain', `The server has no mail domain ${domain}`);
}

/**
 * Mailboxes of one domain: the passwd-file once, then every map once, whatever the count; with
 * `forwards`, the domain's forward set written before the maps are. A quota that changed is
 * counted again by Dovecot.
 */
export async function setMailboxes(
  domain: string,
  changes: MailboxChange[],
  fieldOf: (field: string) => string = (f) => f,
  forwards?: Forward[],
): Promise<void> {
  await requireDomain(domain);
  const current = await readMailboxes(domain);
  const { entries, problems } = mergeMailboxes(current, changes);
  if (problems.length) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw opFieldError(fieldOf(first.field), `${first.message}${more}`);
  }
  await writeMailboxes(domain, entries);
  const forwardsChanged = forwards ? await writeForwards(domain, forwards) : false;
  await syncMaps();
  // An autoresponder's script names where its mailbox forwards.
  if (forwardsChanged) await refreshAllVacations();
  const before = new Map(current.map((m) => [m.local, m.quotaMb]));
  for (const e of entries) {
    const old = before.get(e.local);
    if (old === undefined || old === e.quotaMb) continue;
    // Nothing to count in a mailbox that never got mail.
    if (await fs.stat(`${VMAIL}/${domain}/${e.local}`).catch(() => null))
      await run('doveadm', ['quota', 'recalc', '-u', `${e.local}@${domain}`]);
  }
}

/** Out of the passwd-file and maps; its mail deleted or moved aside (purged after 30 days). */
export async function removeMailbox(
  domain: string,
  local: string,
  deleteMail: boolean,
): Promise<boolean> {
  await requireDomain(domain);
  const current = await readMailboxes(domain);
  if (!current.some((m) => m.local === local)) return false;
  await setVacation(domain, local, null).catch(() => undefined);
  await writeMailboxes(
    domain,
    current.filter((m) => m.local !== local),
  );
  await syncMaps();
  await run('doveadm', ['kick', `${local}@${domain}`]);
  await putMailAside(`${VMAIL}/${domain}/${local}`, `${domain}-${local}`, deleteMail);
  return true;
}

export async function putMailAside(dir: string, name: string, deleteMail: boolean): Promise<void> {
  if (!(await fs.stat(dir).catch(() => null))) return;
  if (deleteMail) {
    await fs.rm(dir, { recursive: true, force: true });
    return;
  }
  await fs.mkdir(TRASH, { recursive: true, mode: 0o700 });
  await fs.rename(dir, `${TRASH}/${name}-${Date.now()}`);
  await purgeTrash();
}

async function purgeTrash(): Promise<void> {
  const cutoff = Date.now() - KEEP_DAYS * 86_400_000;
  for (const name of await fs.readdir(TRASH).catch(() => [] as string[])) {
    const at = Number(/-(\d{13})$/.exec(name)?.[1]);
    if (at && at < cutoff) await fs.rm(`${TRASH}/${name}`, { recursive: true, force: true });
  }
}
