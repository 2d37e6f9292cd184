import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, buildTestApp } from './helpers';
import { addSysuser } from './serverRows';

/**
 * Root is recorded among a server's system users but never named by id: the child loader of
 * `sysusers/{id}` leaves it out, so no route reads, re-passwords or deletes it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function rowId(serverId: number, userName: string): Promise<number> {
  const row = await t.app.db
    .selectFrom('sysusers')
    .select('id')
    .where('server_id', '=', serverId)
    .where('user_name', '=', userName)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('the root system user', () => {
  it('is as missing as an unknown id to its own server owner', async () => {
    const owner = await t.user();
    const created = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
      token: owner.token,
      body: { name: `srv-${randomUUID().slice(0, 6)}` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sid = (created.json() as { id: number }).id;
    await addSysuser(t.app.db, sid, 'root');
    await addSysuser(t.app.db, sid, 'alice');
    const url = (id: number) => `/api/v1/sysusers/${id}/servers/${sid}/users/${owner.id}`;

    // The route itself works: another system user is found.
    const alice = await t.call('GET', url(await rowId(sid, 'alice')), { token: owner.token });
    expect(alice.statusCode, alice.body).toBe(200);

    const root = await rowId(sid, 'root');
    const read = await t.call('GET', url(root), { token: owner.token });
    expect(read.statusCode, read.body).toBe(404);
    const repass = await t.call('PUT', url(root), {
      token: owner.token,
      body: { password: 'A-long-enough-Passw0rd!' },
    });
    expect(repass.statusCode, repass.body).toBe(404);
    const removed = await t.call('DELETE', url(root), { token: owner.token });
    expect(removed.statusCode, removed.body).toBe(404);
    expect(await rowId(sid, 'root')).toBe(root);
  });
});
