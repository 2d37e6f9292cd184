import { describe, expect, it } from 'vitest';
import type { ActionDef, OperationDef, ResourceDef } from '../../resources/define';
import { templateParams } from '../../resources/define';
import { resources } from '../../resources';
import { userSchema, userUpdate } from '../../resources/user-profile';
import { loginBody, registerBody } from '../../resources/user-security';

/** Rules every declaration must keep; a new resource breaking one fails here first. */
interface Op {
  where: string;
  method: string;
  template: string;
  def: OperationDef;
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const r of Object.values(resources) as ResourceDef[]) {
    const { list, get, create, update, delete: del } = r.ops;
    if (list)
      out.push({ where: `${r.name}.list`, method: 'GET', template: r.paths.list!, def: list });
    if (get) out.push({ where: `${r.name}.get`, method: 'GET', template: r.paths.one!, def: get });
    if (create)
      out.push({ where: `${r.name}.create`, method: 'POST', template: r.paths.list!, def: create });
    if (update)
      out.push({
        where: `${r.name}.update`,
        method: update.method ?? 'PUT',
        template: r.paths.one!,
        def: update,
      });
    if (del)
      out.push({ where: `${r.name}.delete`, method: 'DELETE', template: r.paths.one!, def: del });
    for (const [name, a] of Object.entries<ActionDef>(r.actions ?? {}))
      out.push({ where: `${r.name}.${name}`, method: a.method, template: a.path, def: a });
  }
  return out;
}

const PRIVILEGED = [
  'id',
  'uuid',
  'email',
  'is_admin',
  'is_admin_staff',
  'plan_id',
  'api_key',
  'api_secret',
  'confirmed',
  'disabled',
  'referrer_id',
  'photo',
  'created_at',
];

describe('resource declarations', () => {
  it('a "self" operation names {uid}; uid-less ones are not "self"', () => {
    for (const op of operations()) {
      const named = templateParams(op.template).includes('uid');
      if (op.def.guard === 'self') expect(named, op.where).toBe(true);
    }
  });

  it('staffMay only widens reads of "self" operations', () => {
    const widened = operations().filter((op) => op.def.staffMay);
    expect(widened.map((op) => op.where).sort()).toEqual([
      // Spec s.6: staff view a user's backup credit by supplying the user's id.
      'backup-credit.get',
      'servers.get',
      'servers.list',
      'users.get',
      'users.photo',
    ]);
    for (const op of widened) {
      expect(op.def.guard, op.where).toBe('self');
      expect(op.method, op.where).toBe('GET');
    }
  });

  it('holder-only operations (password, 2FA, keys, deletion) name the account', () => {
    const holderOnly = operations().filter((op) => op.def.forbidWhileActing);
    expect(holderOnly.map((op) => op.where).sort()).toEqual([
      // The backup recovery key opens every backup of the account: the holder's alone.
      'backup-recovery-key.make',
      // Mail is its owner's to read: no admin, acting or not (nor a team member: ownerOnly).
      'mail-webmail.attachment',
      'mail-webmail.delete',
      'mail-webmail.draft',
      'mail-webmail.flag',
      'mail-webmail.folders',
      'mail-webmail.image',
      'mail-webmail.list',
      'mail-webmail.message',
      'mail-webmail.move',
      'mail-webmail.send',
      // Where the money goes is the holder's choice.
      'referrals.withdraw',
      // Opening a mailbox in Roundcube signed in, as the webmail: the mail owner's alone.
      'roundcube-sso.open',
      // Giving a server away is the owner's decision, not an admin's acting for them.
      'servers.transfer',
      // Where the account is signed in, and signing it out there, are the holder's own.
      'sessions.list',
      'sessions.revoke',
      'sessions.revokeOthers',
      // Joining a team, or refusing to, is the invitee's own answer.
      'team-invites.accept',
      'team-invites.decline',
      // The account's API keys and authenticator enrolment (features/account-security).
      'user-security.apiKeys',
      'user-security.generateApiKey',
      'user-security.revokeApiKey',
      'user-security.totpEnrol',
      'users.delete',
    ]);
    for (const op of holderOnly) expect(templateParams(op.template), op.where).toContain('uid');
  });

  it('rate limits sit on the sign-in, confirm, OTP and reset calls, and the 911 run', () => {
    expect(
      operations()
        .filter((op) => op.def.rateLimited)
        .map((op) => `${op.method} ${op.template}`)
        .sort(),
    ).toEqual(
      [
        'POST users',
        'POST users/confirm',
        'GET users/email',
        'POST users/login',
        'GET users',
        'POST users/password',
        'GET users/{uid}/otp',
        // The 911 tool checks a mailed code on each run.
        'PATCH admin/common-script',
      ].sort(),
    );
  });

  it('every operation declares a known guard, and method+path pairs are unique', () => {
    const seen = new Set<string>();
    for (const op of operations()) {
      expect(['public', 'user', 'self', 'staff', 'admin'], op.where).toContain(op.def.guard);
      const key = `${op.method} ${op.template.replace(/\{\w+\}/g, '{}')}`;
      expect(seen.has(key), `${op.where}: ${key} twice`).toBe(false);
      seen.add(key);
    }
  });

  it('what a user may write holds no privileged field', () => {
    const writable = Object.keys(userUpdate.shape);
    expect(writable.filter((f) => PRIVILEGED.includes(f))).toEqual([]);
    expect(userUpdate.parse({ is_admin: true, plan_id: 4, City: 'Rome' })).toEqual({
      City: 'Rome',
    });
    expect(Object.keys(registerBody.shape).sort()).toEqual(['email', 'password', 'user_name']);
  });

  it('no record schema carries a secret', () => {
    // Settings about passwords are not passwords (root_password: whether the user asked the
    // panel to set root's password, a flag).
    const settings = new Set([
      'sshconfig.password_authentication',
      'servers.root_password',
      'team-servers.root_password',
    ]);
    for (const r of Object.values(resources) as ResourceDef[]) {
      for (const field of Object.keys(r.schema.shape)) {
        if (settings.has(`${r.name}.${field}`)) continue;
        expect(field, `${r.name}.${field}`).not.toMatch(/hash|secret|password|token/i);
      }
    }
    expect(Object.keys(userSchema.shape)).toContain('api_key');
  });

  it('login takes any stored email spelling and bounded lengths', () => {
    expect(loginBody.safeParse({ email: 'admin@localhost', password: 'x' }).success).toBe(true);
    expect(loginBody.safeParse({ email: 'a', password: 'p'.repeat(129) }).success).toBe(false);
  });
});
