/**
 * nft, run with argv only: check and load a file, add or delete one element, and read the
 * panel's table back as JSON (the sets' elements, with what is left of their timeouts).
 */
import { run } from '../../agent/lib/exec';
import { OpError } from '../../agent/lib/opError';
import { TABLE } from './render';
import type { DenyListItem } from './resource';

const NFT = '/usr/sbin/nft';

const said = (r: { stdout: string; stderr: string }) =>
  `${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-6).join('\n');

/** `nft -c -f`: the whole file is parsed and checked against the kernel, nothing applied. */
export async function checkFile(file: string): Promise<void> {
  const res = await run(NFT, ['-c', '-f', file], { timeoutMs: 120_000 });
  if (res.code !== 0) throw new OpError('failed', `nft refused the ruleset: ${said(res)}`);
}

/** `nft -f`: one transaction, all or nothing. */
export async function loadFile(file: string): Promise<void> {
  const res = await run(NFT, ['-f', file], { timeoutMs: 120_000 });
  if (res.code !== 0) throw new OpError('failed', `nft could not load the ruleset: ${said(res)}`);
}

/** One element in or out of a set, without reloading anything. */
export async function changeElement(
  action: 'add' | 'delete',
  set: string,
  element: string,
): Promise<void> {
  const res = await run(NFT, [action, 'element', 'inet', TABLE, set, element]);
  // Taking out what is already gone (an expired temporary rule) is no error.
  if (res.code !== 0 && !(action === 'delete' && /No such file or directory/.test(res.stderr)))
    throw new OpError('failed', `nft ${action} element: ${said(res)}`);
}

/**
 * The panel's table is loaded: its (small) allow set answers. Not `nft list tables`, which
 * nft 1.0.6 answers only after reading every set of every table, country sets included.
 */
export async function tablePresent(): Promise<boolean> {
  const res = await run(NFT, ['list', 'set', 'inet', TABLE, 'allow4']);
  return res.code === 0;
}

interface NftSet {
  name: string;
  table: string;
  family: string;
  elem?: unknown[];
}

/** The sets read back: not the country sets, which can hold hundreds of thousands of ranges. */
const TEMP = ['tempallow', 'tempdeny'].flatMap((k) =>
  ['4', '6', 'port4', 'port6'].map((f) => `${k}${f}`),
);
const LISTED = ['allow4', 'allow6', 'deny4', 'deny6', ...TEMP];

/** The panel's lists as nft holds them (set name -> elements), or null when not loaded. */
export async function readTable(): Promise<Map<string, unknown[]> | null> {
  if (!(await tablePresent())) return null;
  const sets = new Map<string, unknown[]>();
  for (const name of LISTED) {
    const res = await run(NFT, ['-j', 'list', 'set', 'inet', TABLE, name]);
    if (res.code !== 0) continue;
    const parsed = JSON.parse(res.stdout) as { nftables?: { set?: NftSet }[] };
    for (const item of parsed.nftables ?? [])
      if (item.set && item.set.table === TABLE) sets.set(item.set.name, item.set.elem ?? []);
  }
  return sets;
}

/** One element of nft's JSON as text, with its port and seconds left when it has them. */
export function elementText(raw: unknown): {
  ip: string;
  port: number | null;
  expires: number | null;
} {
  let value = raw;
  let expires: number | null = null;
  if (value && typeof value === 'object' && 'elem' in value) {
    const elem = (value as { elem: { val: unknown; expires?: number } }).elem;
    value = elem.val;
    expires = typeof elem.expires === 'number' ? elem.expires : null;
  }
  let port: number | null = null;
  if (value && typeof value === 'object' && 'concat' in value) {
    const [ip, p] = (value as { concat: [unknown, unknown] }).concat;
    value = ip;
    port = typeof p === 'number' ? p : Number(p);
  }
  if (typeof value === 'string') return { ip: value, port, expires };
  if (value && typeof value === 'object' && 'prefix' in value) {
    const { addr, len } = (value as { prefix: { addr: string; len: number } }).prefix;
    return { ip: `${addr}/${len}`, port, expires };
  }
  if (value && typeof value === 'object' && 'range' in value) {
    const [a, b] = (value as { range: [string, string] }).range;
    return { ip: `${a}-${b}`, port, expires };
  }
  return { ip: JSON.stringify(value), port, expires };
}

const members = (sets: Map<string, unknown[]>, names: string[]) =>
  names.flatMap((n) => (sets.get(n) ?? []).map(elementText));

/** The deny sets, permanent then temporary. */
export function denyList(sets: Map<string, unknown[]>): DenyListItem[] {
  const permanent = members(sets, ['deny4', 'deny6']).map((e) => ({
    ip: e.ip,
    kind: 'deny' as const,
    port: null,
    expires_in: null,
  }));
  const temp = members(sets, ['tempdeny4', 'tempdeny6', 'tempdenyport4', 'tempdenyport6']).map(
    (e) => ({ ip: e.ip, kind: 'temp' as const, port: e.port, expires_in: e.expires }),
  );
  return [...permanent, ...temp];
}

export function counts(sets: Map<string, unknown[]>) {
  const n = (names: string[]) => names.reduce((sum, s) => sum + (sets.get(s)?.length ?? 0), 0);
  return {
    allow: n(['allow4', 'allow6']),
    deny: n(['deny4', 'deny6']),
    temp_allow: n(['tempallow4', 'tempallow6', 'tempallowport4', 'tempallowport6']),
    temp_deny: n(['tempdeny4', 'tempdeny6', 'tempdenyport4', 'tempdenyport6']),
  };
}
