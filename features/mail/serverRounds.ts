/**
 * Group commit for the changes of one key (a server's mail domain): one round runs at a time,
 * and what arrives while it runs goes together in the next. A thousand mailboxes asked for four
 * at a time then cost a few hundred agent calls, each rewriting the domain's files once, not a
 * thousand (the agent holds one mail lock, so calls of one server never overlap anyway).
 */
interface Waiting<Item> {
  item: Item;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What a round answers for each item, in order: nothing when it went well, else its error. */
export type RoundOutcome = unknown;

export type Flush<Item> = (items: Item[]) => Promise<RoundOutcome[]>;

export class Rounds<Item> {
  private readonly lanes = new Map<string, Waiting<Item>[]>();

  /** At most this many items in one round (the op's argument has a bound). */
  constructor(private readonly maxPerRound = 200) {}

  /** Settles when the round that carried `item` did: `flush` is the caller's, run by whoever's round it is. */
  run(key: string, item: Item, flush: Flush<Item>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiting = this.lanes.get(key);
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      const lane: Waiting<Item>[] = [{ item, resolve, reject }];
      this.lanes.set(key, lane);
      void this.drain(key, lane, flush);
    });
  }

  private async drain(key: string, lane: Waiting<Item>[], flush: Flush<Item>): Promise<void> {
    while (lane.length > 0) {
      const round = lane.splice(0, this.maxPerRound);
      let outcomes: RoundOutcome[];
      try {
        outcomes = await flush(round.map((w) => w.item));
      } catch (error) {
        outcomes = round.map(() => error ?? new Error('the round failed'));
      }
      round.forEach((w, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined || outcome === null) w.resolve();
        else w.reject(outcome);
      });
    }
    this.lanes.delete(key);
  }
}
