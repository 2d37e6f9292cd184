import { describe, expect, it } from 'vitest';
import { countOf, planLimitWords } from '../../features/plans/api';

describe('the words of a plan limit', () => {
  it('say what the plan allows and which plans allow more', () => {
    expect(
      planLimitWords({ plan: 'Free', what: 'servers', limit: 1, upgradeTo: ['Basic', 'Pro'] }),
    ).toBe('Your Free plan allows 1 server. Upgrade to Basic or Pro to add more.');
    expect(planLimitWords({ plan: 'Basic', what: 'webapps', limit: 5, upgradeTo: ['Pro'] })).toBe(
      'Your Basic plan allows 5 web apps. Upgrade to Pro to add more.',
    );
    expect(
      planLimitWords({
        plan: 'Trial',
        what: 'team_members',
        limit: 0,
        upgradeTo: ['Basic', 'Plus', 'Pro'],
      }),
    ).toBe('Your Trial plan allows no team members. Upgrade to Basic, Plus or Pro to add more.');
  });

  it('say what to do when no plan offered allows more', () => {
    expect(planLimitWords({ plan: 'Pro', what: 'servers', limit: 50, upgradeTo: [] })).toBe(
      'Your Pro plan allows 50 servers. Remove a server to add another.',
    );
  });

  it('count in words, thousands grouped', () => {
    expect(countOf('team_members', 1)).toBe('1 team member');
    expect(countOf('webapps', 1000)).toBe('1,000 web apps');
    expect(countOf('servers', 0)).toBe('no servers');
  });
});
