import { describe, expect, it } from 'vitest';
import { loopTarget } from '../../features/mail/forwards';

describe('forward loops', () => {
  const forwards = new Map([
    ['a@x.example', ['b@x.example']],
    ['b@x.example', ['c@y.example', 'out@z.example']],
    ['d@x.example', ['d2@x.example']],
  ]);

  it("finds a target equal to the mailbox, or a cycle through the panel's forwards", () => {
    expect(loopTarget('a@x.example', ['a@x.example'], new Map())).toBe('a@x.example');
    expect(loopTarget('c@y.example', ['out@z.example', 'a@x.example'], forwards)).toBe(
      'a@x.example',
    );
  });

  it('lets chains without a way back through, cycles elsewhere included', () => {
    expect(loopTarget('e@x.example', ['a@x.example', 'd@x.example'], forwards)).toBeNull();
    const elsewhere = new Map([
      ['p@x.example', ['q@x.example']],
      ['q@x.example', ['p@x.example']],
    ]);
    expect(loopTarget('e@x.example', ['p@x.example'], elsewhere)).toBeNull();
  });

  it("sends an address nothing holds to its domain's catch-all, and follows it", () => {
    const withCatchAll = new Map([
      ['info@x.example', [] as string[]],
      ['@x.example', ['info@x.example']],
      ['f@x.example', ['nobody@x.example']],
    ]);
    // The catch-all, sent to an address of its own domain that nothing holds, catches it again.
    expect(loopTarget('@x.example', ['ghost@x.example'], new Map())).toBe('ghost@x.example');
    // info -> f -> nobody (unknown) -> the catch-all -> info.
    expect(loopTarget('info@x.example', ['f@x.example'], withCatchAll)).toBe('f@x.example');
    // A real mailbox keeps its mail: the catch-all is not followed from it.
    expect(loopTarget('@x.example', ['info@x.example'], withCatchAll)).toBeNull();
    // Another domain's unknown address does not fall to this one's catch-all.
    expect(loopTarget('info@x.example', ['someone@y.example'], withCatchAll)).toBeNull();
  });
});
