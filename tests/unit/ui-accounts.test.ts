import { describe, expect, it } from 'vitest';
import { formFields } from '../../src/generic/formModel';
import { pubkeys } from '../../features/sshkeys/resource';
import { sysusers } from '../../features/sysusers/resource';

// The declarations the system-users and SSH-keys pages are to be drawn from by the generic form.
describe('accounts declarations', () => {
  it('sysusers: name checked for availability, password generated, quotas as inputs', () => {
    const byName = Object.fromEntries(formFields(sysusers, 'create').map((f) => [f.name, f]));
    expect(Object.keys(byName)).toEqual(['user_name', 'password', 'quota_hard', 'quota_soft']);
    expect(byName.user_name!.widget).toEqual({ kind: 'availability' });
    expect(byName.password!.widget).toEqual({ kind: 'password' });
    expect(byName.quota_hard!.label).toBe('Hard quota (MB)');
    // Changing a user is only its password, still with the generator.
    const update = formFields(sysusers, 'update');
    expect(update.map((f) => f.name)).toEqual(['password']);
    expect(update[0]!.widget).toEqual({ kind: 'password' });
  });

  it('pubkeys: the user is a select of the server system users plus root', () => {
    const byName = Object.fromEntries(formFields(pubkeys, 'create').map((f) => [f.name, f]));
    expect(Object.keys(byName)).toEqual(['label', 'user_name', 'key']);
    expect(byName.user_name!.widget).toMatchObject({
      kind: 'reference',
      resource: 'sysusers',
      optionValue: 'user_name',
      extra: [{ label: 'root', value: 'root' }],
    });
    expect(byName.key!.label).toBe('Public key');
  });
});
