import { describe, expect, it } from 'vitest';
import { Rounds } from '../../features/mail/serverRounds';

/** Group commit for a server's mail domain (features/mail/serverRounds.ts). */
describe('rounds of one key', () => {
  it('runs the first item at once and what arrives meanwhile together in the next round', async () => {
    const rounds = new Rounds<string>();
    const seen: string[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const flush = async (items: string[]) => {
      seen.push(items);
      if (seen.length === 1) await held;
      return items.map(() => undefined);
    };
    const first = rounds.run('srv:a', 'one', flush);
    const later = ['two', 'three', 'four'].map((item) => rounds.run('srv:a', item, flush));
    // Another key is not held behind this one.
    await rounds.run('srv:b', 'other', flush);
    release();
    await Promise.all([first, ...later]);
    expect(seen).toEqual([['one'], ['other'], ['two', 'three', 'four']]);
  });

  it('settles each item with its own outcome, and a round that throws fails all of its items', async () => {
    const rounds = new Rounds<number>();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const flush = async (items: number[]) => {
      calls += 1;
      if (calls === 1) {
        await held;
        throw new Error('the server is gone');
      }
      return items.map((n) => (n % 2 ? new Error(`odd ${n}`) : undefined));
    };
    const first = rounds.run('k', 0, flush);
    const rest = [1, 2, 3].map((n) => rounds.run('k', n, flush));
    release();
    await expect(first).rejects.toThrow('the server is gone');
    const settled = await Promise.allSettled(rest);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toEqual(new Error('odd 1'));
  });

  it('keeps a round within its bound', async () => {
    const rounds = new Rounds<number>(2);
    const seen: number[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const flush = async (items: number[]) => {
      seen.push(items);
      if (seen.length === 1) await held;
      return items.map(() => undefined);
    };
    const all = [1, 2, 3, 4, 5].map((n) => rounds.run('k', n, flush));
    release();
    await Promise.all(all);
    expect(seen).toEqual([[1], [2, 3], [4, 5]]);
  });
});
