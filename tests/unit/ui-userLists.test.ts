import { describe, expect, it } from 'vitest';
import { authlogs } from '../../resources/authlogs';
import { pubkeys } from '../../features/sshkeys/resource';
import { sysusers } from '../../features/sysusers/resource';
import { rowTestId } from '../../src/generic/GenericListBody';
import { adderOf } from '../../features/sshkeys/KeyList';

describe("a server's system users and SSH keys on the generic list", () => {
  it('name each row from the declaration: singular resource name and representation', () => {
    expect(rowTestId(sysusers, { id: 3, user_name: 'alice' })).toBe('sysuser-alice');
    expect(rowTestId(pubkeys, { id: 7, label: 'owner laptop' })).toBe('pubkey-owner laptop');
    // Without a representation, the id.
    expect(rowTestId(authlogs, { id: 12 })).toBe('authlog-#12');
  });

  it('list fields the records have', () => {
    for (const resource of [sysusers, pubkeys]) {
      const shape = resource.schema.shape as Record<string, unknown>;
      for (const field of resource.ui?.listFields ?? []) expect(shape).toHaveProperty(field);
    }
    expect(pubkeys.ui?.listFields).toEqual(['user_name', 'label', 'fingerprint', 'status']);
  });

  it('say who added a key as the viewer reads it', () => {
    const added_by = { id: 4, user_name: 'Leo Member', email: 'leo@example.test' };
    expect(adderOf({ added_by }, 4)).toBe('you');
    expect(adderOf({ added_by }, 9)).toBe('Leo Member (leo@example.test)');
    expect(adderOf({ added_by: null }, 4)).toBe('a former user');
  });
});
