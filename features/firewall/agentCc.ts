/**
 * Country range lists on the agent: the panel sends a list in parts (the agent link takes
 * messages up to 1 MB; a country holds tens of thousands of ranges), then an apply names it by
 * its key. The first apply that names it joins the parts, checks their count, their sha256 and
 * every range, and writes the list as an nft file of its own (`<key>.nft`, the country sets
 * and their rules, countrySets.ts), included by the table's file. From then on the list is only
 * included: a change of the allow or deny list neither reads, checks nor writes it again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { OpError } from '../../agent/lib/opError';
import { isRangeElement } from './countries';
import { renderCountries } from './countrySets';
import type { CcRef } from './state';

/** Keys and part numbers are checked by the op's schema (hex, integers): safe in a name. */
const partOf = (dir: string, key: string, part: number) => `${dir}/${key}.${part}`;
export const ccFileOf = (dir: string, key: string) => `${dir}/${key}.nft`;

const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

/** The agent's own file of that list is there (written only after its checks passed). */
export async function haveList(dir: string, key: string): Promise<boolean> {
  const stat = await fs.lstat(ccFileOf(dir, key)).catch(() => null);
  return Boolean(stat?.isFile());
}

export async function stagePart(
  dir: string,
  part: { key: string; part: number; ranges: string[] },
): Promise<number> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(partOf(dir, part.key, part.part), part.ranges.join('\n'), 0o600);
  return part.ranges.length;
}

const mismatch = () =>
  new OpError('failed', 'The staged country ranges do not match what the panel sent');

/**
 * The nft file of the list an apply names: the one kept from before, or made now from the
 * parts just sent (whole, matching their count and sha256, each a range element), which are
 * then taken away.
 */
export async function countriesFile(dir: string, ref: CcRef): Promise<string> {
  const file = ccFileOf(dir, ref.key);
  if (await haveList(dir, ref.key)) return file;
  const sent = ref.sent;
  if (!sent)
    throw new OpError(
      'failed',
      'The country ranges are no longer on this server: apply the firewall again',
    );
  const parts: string[] = [];
  for (let i = 0; i < sent.parts; i++) {
    const part = await readOrNull(partOf(dir, ref.key, i));
    if (part === null)
      throw new OpError(
        'failed',
        `Part ${i + 1} of ${sent.parts} of the country ranges is missing`,
      );
    parts.push(part);
  }
  const text = parts.join('\n');
  if (createHash('sha256').update(text).digest('hex') !== sent.sha256) throw mismatch();
  const ranges = text.split('\n');
  if (ranges.length !== sent.count || !ranges.every(isRangeElement)) throw mismatch();
  await writeFileAtomic(file, renderCountries(ref.key, ranges), 0o600);
  for (let i = 0; i < sent.parts; i++) await fs.rm(partOf(dir, ref.key, i), { force: true });
  return file;
}

/** After an apply held: only the list it used stays (none when it used none). */
export async function keepOnly(dir: string, key: string | null): Promise<void> {
  const keep = key === null ? null : `${key}.nft`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names)
    if (name !== keep) await fs.rm(`${dir}/${name}`, { force: true, recursive: true });
}
