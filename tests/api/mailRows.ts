import { expect } from 'vitest';
import type { TestUser } from './helpers';
import type { FakeAgent } from './fakeAgent';
import type { LiveApp } from './liveApp';

/**
 * A mailbox made as a user makes it: mail on the fake agent's server (as if enabled), a web app
 * `app` on `<app>.example` (the server has the system user alice), then `local@<app>.example`
 * through the API. Its id.
 */
export async function mailboxThroughApi(
  live: LiveApp,
  fake: FakeAgent,
  user: TestUser,
  app: string,
  local: string,
): Promise<number> {
  const on = (p: string) => `/api/v1/${p}/servers/${fake.server.id}/users/${user.id}`;
  await live.t.app.db
    .insertInto('mail_servers')
    .values({ server_id: fake.server.id, enabled: 1, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('server_id').doNothing())
    .execute();
  let res = await live.t.call('POST', on('webstacks'), {
    token: user.token,
    body: { name: app, domains: [`${app}.example`], sys_user: 'alice' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const appId = res.json().id as number;
  res = await live.t.call('POST', `${on('mail-user')}?wsid=${appId}`, {
    token: user.token,
    body: { local, domain: `${app}.example`, password: 'a long mail password' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
