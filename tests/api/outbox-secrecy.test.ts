import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * Issue 8, finding 2: an admin must not read another account's codes or links in the outbox
 * (that was an account takeover, other admins included). The outbox shows that a code went out,
 * never the code; only the recipient's mailbox gets it.
 */
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, otherAdmin, user] = await Promise.all([
    t.user({ admin: true }),
    t.user({ admin: true }),
    t.user(),
  ]);
});
afterAll(() => t.close());

/** Everything an admin can read of the mails to `to`: the list rows and each opened mail. */
async function adminView(to: string): Promise<string> {
  const list = await t.call('GET', `/api/v1/admin/outbox?q=${encodeURIComponent(to)}`, {
    token: admin.token,
  });
  expect(list.statusCode).toBe(200);
  const { data } = list.json() as { data: { id: number }[] };
  expect(data.length).toBeGreaterThan(0);
  const opened = await Promise.all(
    data.map((row) => t.call('GET', `/api/v1/admin/outbox/${row.id}`, { token: admin.token })),
  );
  return [list.body, ...opened.map((r) => r.body)].join('\n');
}

/** The rows as stored, for the "never stored in clear" check. */
const stored = async (to: string) =>
  (
    await t.app.db
      .selectFrom('outbox')
      .select(['subject', 'text_body'])
      .where('to_addr', '=', to)
      .execute()
  )
    .map((r) => `${r.subject}\n${r.text_body}`)
    .join('\n');

describe('the outbox masks codes and links', () => {
  it('a password reset of another admin: the admin sees that it was sent, not the code', async () => {
    const forgot = await t.call('GET', `/api/v1/users?em=${encodeURIComponent(otherAdmin.email)}`);
    const { id } = forgot.json() as { id: string };
    const mail = await t.lastMail(otherAdmin.email);
    const code = /code is (\d{6})/.exec(mail!.text_body)![1]!;
    const view = await adminView(otherAdmin.email);
    expect(view).toContain('Reset your Stackdeck password');
    expect(view).toContain('Your password reset code is ••••••');
    expect(view).not.toContain(code);
    expect(view).not.toContain(id);
    expect(await stored(otherAdmin.email)).not.toContain(code);
    expect(await stored(otherAdmin.email)).not.toContain(id);
    // So the admin cannot set that admin's password with what the outbox shows.
    const takeover = await t.call('POST', '/api/v1/users/password', {
      body: { id, code: '••••••', password: 'taken over by an admin' },
    });
    expect(takeover.statusCode).toBe(400);
  });

  it('confirmation, sign-in and verification codes are masked; the recipient gets them', async () => {
    const email = `masked-${randomUUID().slice(0, 8)}@example.com`;
    const reg = await t.call('POST', '/api/v1/users', {
      body: { email, password: 'a long enough password', user_name: 'Masked' },
    });
    expect(reg.statusCode).toBe(201);
    const received = (await t.lastMail(email))!.text_body;
    const code = /code is (\d{6})/.exec(received)![1]!;
    const uuid = /confirm-account\?uuid=([0-9a-f-]{36})/.exec(received)![1]!;
    const view = await adminView(email);
    expect(view).toContain('Confirm your Stackdeck account');
    expect(view).not.toContain(code);
    expect(view).not.toContain(uuid);
    expect(await stored(email)).not.toContain(code);

    // Sign-in code (emailed two-factor) and a verification code of a user.
    await t.app.services.users.update(user.id, { two_factor: 1, two_factor_method: 'email' });
    const login = await t.call('POST', '/api/v1/users/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.json()).toMatchObject({ otp_required: true });
    const loginCode = await t.codeIn(user.email);
    await t.call('GET', `/api/v1/users/${user.id}/otp`, { token: user.token });
    const verifyCode = await t.codeIn(user.email);
    const userView = await adminView(user.email);
    expect(userView).toContain('Your sign-in code is ••••••');
    expect(userView).toContain('Your one-time code is ••••••');
    expect(userView).not.toContain(loginCode);
    expect(userView).not.toContain(verifyCode);
  });

  it('team invitation links are masked', async () => {
    const owner = await t.user();
    const invited = `invited-${randomUUID().slice(0, 8)}@example.com`;
    const team = await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
      token: owner.token,
      body: { name: 'Masked team' },
    });
    const patched = await t.call('PATCH', `/api/v1/teams/${team.json().id}/users/${owner.id}`, {
      token: owner.token,
      body: { invite: [invited] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(invited))!.text_body)![1]!;
    const view = await adminView(invited);
    expect(view).toContain('Accept the invitation at ••••••');
    expect(view).not.toContain(invite);
  });

  it('server transfer links are masked', async () => {
    const owner = await t.user();
    const server = await t.app.services.servers.create(owner.id, { name: 'masked-transfer' });
    const to = `buyer-${randomUUID().slice(0, 8)}@example.com`;
    const offered = await t.call(
      'POST',
      `/api/v1/transfer/servers/${server.id}/users/${owner.id}`,
      {
        token: owner.token,
        body: { email: to },
      },
    );
    expect(offered.statusCode, offered.body).toBe(200);
    const offer = /dashboard\/([0-9a-f-]{36})/.exec((await t.lastMail(to))!.text_body)![1]!;
    const view = await adminView(to);
    expect(view).toContain('accept it at ••••••');
    expect(view).not.toContain(offer);
  });
});

describe('mail written before the masking', () => {
  it('is masked by migration 0008 on upgrade', async () => {
    const { up } = await import('../../server/db/migrations/0008_scrub_outbox');
    const to = `old-${randomUUID().slice(0, 8)}@example.com`;
    const invite = randomUUID();
    // A row as the panel wrote it before issue 8: code and links in clear.
    await t.app.db
      .insertInto('outbox')
      .values({
        to_addr: to,
        subject: 'Confirm your Stackdeck account',
        text_body:
          'Your confirmation code is 482913\n\n' +
          `Enter it at http://panel.test/confirm-account?uuid=${invite}\n` +
          `Join at http://panel.test/team-manager?invite=${invite}\n` +
          `Accept it at http://panel.test/dashboard/${invite}\n` +
          'Sign in at http://panel.test/login\n',
        created_at: new Date().toISOString(),
        sent_at: null,
        error: null,
      })
      .execute();
    // Migrations work below the typed schema.
    await up(t.app.db as unknown as Parameters<typeof up>[0]);
    const seen = await adminView(to);
    expect(seen).not.toContain('482913');
    expect(seen).not.toContain(invite);
    expect(seen).toContain('Your confirmation code is ••••••');
    // Links without a secret stay readable.
    expect(seen).toContain('http://panel.test/login');
  });
});
