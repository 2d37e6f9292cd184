import fs from 'node:fs/promises';
import { run } from '../../agent/lib/exec';
import { writeFileAtomic } from '../../agent/lib/files';
import { OpError, opFieldError } from '../../agent/lib/opError';
import { DOMAINS_DIR } from './agentConfigs';
import { addressesOf } from './agentMapsRender';
import { listDomains, readAllDomains } from './agentState';
import { type VacationSpec, renderVacation } from './agentVacationScript';

const SCRIPT = 'vacation';
const dir = (domain: string) => `${DOMAINS_DIR}/${domain}/vacation`;
const specFile = (domain: string, local: string) => `${dir(domain)}/${local}.json`;

const detail = (r: { stdout: string; stderr: string }) =>
  (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ');

/** The script put by root through doveadm (it compiles it first) and made active. */
async function put(domain: string, local: string, spec: VacationSpec): Promise<void> {
  const address = `${local}@${domain}`;
  const script = renderVacation(spec, addressesOf(address, await readAllDomains()));
  const res = await run('doveadm', ['sieve', 'put', '-u', address, '-a', SCRIPT], {
    input: script,
  });
  if (res.code !== 0) throw new OpError('failed', `doveadm sieve put: ${detail(res)}`);
}

export async function setVacation(
  domain: string,
  local: string,
  spec: VacationSpec | null,
): Promise<{ active: boolean }> {
  const address = `${local}@${domain}`;
  if (spec) {
    await put(domain, local, spec);
    await fs.mkdir(dir(domain), { recursive: true, mode: 0o700 });
    await writeFileAtomic(specFile(domain, local), `${JSON.stringify(spec)}\n`, 0o600);
    return { active: true };
  }
  // Only a mailbox given one by the panel has a script: removing a domain of 1,000 mailboxes
  // runs no doveadm for the others.
  if (!(await fs.stat(specFile(domain, local)).catch(() => null))) return { active: false };
  // The active script cannot be deleted: deactivated first. Neither fails when there is none.
  const user = await run('doveadm', ['user', address]);
  if (user.code === 0) {
    await run('doveadm', ['sieve', 'deactivate', '-u', address]);
    await run('doveadm', ['sieve', 'delete', '-u', address, SCRIPT]);
  } else if (user.code !== 2) {
    throw opFieldError('local', `${address}: ${detail(user)}`);
  }
  await fs.rm(specFile(domain, local), { force: true });
  return { active: false };
}

/** The mailboxes of a domain with an autoresponder. */
export async function vacationLocals(domain: string): Promise<string[]> {
  const names = await fs.readdir(dir(domain)).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
}

/** Every domain's autoresponders again, after a forward set changed. */
export async function refreshAllVacations(): Promise<void> {
  for (const domain of await listDomains()) await refreshVacations(domain);
}

/** Again for every autoresponder of the domain: `:addresses` follows the forwards. */
export async function refreshVacations(domain: string): Promise<void> {
  for (const local of await vacationLocals(domain)) {
    const spec = JSON.parse(await fs.readFile(specFile(domain, local), 'utf8')) as VacationSpec;
    await put(domain, local, spec);
  }
}
