import { expect } from 'vitest';
import type { TestUser } from './helpers';
import type { FakeAgent } from './fakeAgent';
import type { LiveApp } from './liveApp';

/** Mail on the fake agent's server, as if enabled (the real enable is tests/system's). */
async function mailOn(live: LiveApp, fake: FakeAgent): Promise<void> {
  await live.t.app.db
    .insertInto('mail_servers')
    .values({ server_id: fake.server.id, enabled: 1, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('server_id').doNothing())
    .execute();
}

/** `local@domain` through the API on the user's app `appId` (mail on as if enabled). Its id. */
export async function mailboxOfApp(
  live: LiveApp,
  fake: FakeAgent,
  user: TestUser,
  appId: number,
  address: { local: string; domain: string },
): Promise<number> {
  await mailOn(live, fake);
  const res = await live.t.call(
    'POST',
    `/api/v1/mail-user/servers/${fake.server.id}/users/${user.id}?wsid=${appId}`,
    { token: user.token, body: { ...address, password: 'a long mail password' } },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/**
 * A mailbox made as a user makes it: a web app `app` on `<app>.example` (the server has the
 * system user alice), then `local@<app>.example` through the API. Its id.
 */
export async function mailboxThroughApi(
  live: LiveApp,
  fake: FakeAgent,
  user: TestUser,
  app: string,
  local: string,
): Promise<number> {
  const res = await live.t.call(
    'POST',
    `/api/v1/webstacks/servers/${fake.server.id}/users/${user.id}`,
    { token: user.token, body: { name: app, domains: [`${app}.example`], sys_user: 'alice' } },
  );
  expect(res.statusCode, res.body).toBe(201);
  return mailboxOfApp(live, fake, user, res.json().id as number, {
    local,
    domain: `${app}.example`,
  });
}
