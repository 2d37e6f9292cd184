import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/routes/match';
import { buildMenu } from '../../src/shell/buildMenu';

/** Issue 25: the email sidebar leads to the account-wide email pages, and only to pages that exist. */
describe('the email sidebar', () => {
  const user = { isAdmin: false, isStaff: false };
  it('shows email accounts, autoresponders and disk usage; /forwarders only once it has a page', () => {
    const paths = buildMenu('email', user).map((i) => i.to);
    expect(paths).toEqual(
      expect.arrayContaining(['/email-accounts', '/autoresponders', '/email-disk-usage']),
    );
    // Another feature's page: hidden while no route declares it, never a link to nowhere.
    expect(paths.includes('/forwarders')).toBe(matchRoute('/forwarders') !== null);
  });
});
