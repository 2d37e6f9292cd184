import { describe, expect, it } from 'vitest';
import { planLabel, showsUpgrade } from '../../src/shell/plan';

describe('header plan label (spec section 4)', () => {
  it('names plans 1 Trial, 2 Free, 3 Basic, 4 Pro', () => {
    expect([1, 2, 3, 4].map((plan_id) => planLabel({ plan_id }, false))).toEqual([
      'Trial',
      'Free',
      'Basic',
      'Pro',
    ]);
  });
  it('shows admins as Admin, even before their record loads', () => {
    expect(planLabel({ plan_id: 1 }, true)).toBe('Admin');
    expect(planLabel(undefined, true)).toBe('Admin');
  });
  it('shows nothing for a user still loading', () => {
    expect(planLabel(undefined, false)).toBe('');
  });
});

describe('Upgrade to Pro (spec section 6)', () => {
  it('shows for non-admins on any plan but Pro', () => {
    expect([1, 2, 3].every((plan_id) => showsUpgrade({ plan_id }, false))).toBe(true);
    expect(showsUpgrade({ plan_id: 4 }, false)).toBe(false);
  });
  it('never shows for admins, nor before the user is known', () => {
    expect(showsUpgrade({ plan_id: 1 }, true)).toBe(false);
    expect(showsUpgrade(undefined, false)).toBe(false);
  });
});
