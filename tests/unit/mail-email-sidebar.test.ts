import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/routes/match';
import { buildMenu } from '../../src/shell/buildMenu';

/** Issue 25: the email sidebar leads to the account-wide email pages, and only to pages that exist. */
describe('the email sidebar', () => {
  const user = { isAdmin: false, isStaff: false };
  it('shows email accounts, autoresponders, forwarders and disk usage, each a page', () => {
    const paths = buildMenu('email', user).map((i) => i.to);
    expect(paths).toEqual([
      '/email-accounts',
      '/autoresponders',
      '/forwarders',
      '/email-disk-usage',
    ]);
    // Never a link to nowhere.
    for (const p of paths) expect(matchRoute(p), p).not.toBeNull();
  });
});
