import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_IDS } from '../../features/admin-accounts/api';
import { photoGroupOf } from '../../src/resources/admin-users/UserNameCell';

describe("the admin's list of users asks for its page's photos", () => {
  it('in one call for a page of 25: every row names the same ids', () => {
    const page = Array.from({ length: 25 }, (_, i) => 100 - i);
    const groups = new Set(page.map((id) => photoGroupOf(page, id).join(',')));
    expect([...groups]).toEqual([page.join(',')]);
  });

  it("in one call per 25 rows of a longer page, within the route's bound", () => {
    const page = Array.from({ length: 50 }, (_, i) => i + 1);
    const groups = new Set(page.map((id) => photoGroupOf(page, id).join(',')));
    expect(groups.size).toBe(2);
    for (const group of groups) expect(group.split(',')).toHaveLength(MAX_IMAGE_IDS);
    expect(photoGroupOf(page, 30)).toEqual(page.slice(25));
  });

  it('a row outside the page (none loaded yet) asks for its own photo', () => {
    expect(photoGroupOf([1, 2, 3], 9)).toEqual([9]);
    expect(photoGroupOf([], 9)).toEqual([9]);
  });
});
