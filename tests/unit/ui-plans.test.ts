import { describe, expect, it } from 'vitest';
import { planName } from '../../src/generic/plans';

describe('planName', () => {
  it('names the spec plan ids', () => {
    expect([1, 2, 3, 4].map((id) => planName(id))).toEqual(['Trial', 'Free', 'Basic', 'Pro']);
  });
  it('shows admins as Admin whatever their plan', () => {
    expect(planName(4, true)).toBe('Admin');
  });
  it('says so for an id it does not know', () => {
    expect(planName(9)).toBe('Unknown plan');
    expect(planName(null)).toBe('Unknown plan');
  });
});
