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
});
