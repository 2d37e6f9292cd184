/**
 * Country range lists staged on the agent: the panel sends a list in parts (the agent link
 * takes messages up to 1 MB; a country holds tens of thousands of ranges), then an apply names
 * it by its sha256. The list is joined, its hash and every range checked again, and kept until
 * another list replaces it, so a change of the allow list does not send it again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { OpError } from '../../agent/lib/opError';
import { isRangeElement } from './countries';
import type { CcRef } from './state';

/** Keys and part numbers are checked by the op's schema (hex, integers): safe in a name. */
const fileOf = (dir: string, key: string, part?: number) =>
  part === undefined ? `${dir}/${key}` : `${dir}/${key}.${part}`;

const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

export async function haveList(dir: string, key: string): Promise<boolean> {
  const stat = await fs.lstat(fileOf(dir, key)).catch(() => null);
  return Boolean(stat?.isFile());
}

export async function stagePart(
  dir: string,
  part: { key: string; part: number; ranges: string[] },
): Promise<number> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(fileOf(dir, part.key, part.part), part.ranges.join('\n'), 0o600);
  return part.ranges.length;
}

/**
 * The ranges of a staged list: whole (every part there), matching its key and count, each a
 * range element again. The joined list is kept under its key and the parts taken away.
 */
export async function stagedRanges(dir: string, ref: CcRef): Promise<string[]> {
  let text = await readOrNull(fileOf(dir, ref.key));
  const joined = text === null;
  if (text === null) {
    const parts: string[] = [];
    for (let i = 0; i < ref.parts; i++) {
      const part = await readOrNull(fileOf(dir, ref.key, i));
      if (part === null)
        throw new OpError(
          'failed',
          `Part ${i + 1} of ${ref.parts} of the country ranges is missing`,
        );
      parts.push(part);
    }
    text = parts.join('\n');
  }
  if (createHash('sha256').update(text).digest('hex') !== ref.key)
    throw new OpError('failed', 'The staged country ranges do not match what the panel sent');
  const ranges = text.split('\n');
  if (ranges.length !== ref.count || !ranges.every(isRangeElement))
    throw new OpError('failed', 'The staged country ranges do not match what the panel sent');
  if (joined) {
    await writeFileAtomic(fileOf(dir, ref.key), text, 0o600);
    for (let i = 0; i < ref.parts; i++) await fs.rm(fileOf(dir, ref.key, i), { force: true });
  }
  return ranges;
}

/** After an apply held: only the list it used stays (none when it used none). */
export async function keepOnly(dir: string, key: string | null): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names)
    if (name !== key) await fs.rm(`${dir}/${name}`, { force: true, recursive: true });
}
