import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/**
 * An offer is good only while its maker owns the server. Every way the panel moves a server
 * today (an accepted offer) voids the other open offers too, so the ownership check of the
 * accept is the one line that still holds if a server ever leaves its owner another way (an
 * admin's fix in the database, a future route): the tests move the server in the database,
 * leave the offer open, and expect the accept to be refused.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function newServer(owner: TestUser): Promise<number> {
  const res = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
    token: owner.token,
    body: { name: `srv-${randomUUID().slice(0, 6)}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}

async function offered(owner: TestUser, sid: number, to: TestUser): Promise<string> {
  const res = await t.call('POST', `/api/v1/transfer/servers/${sid}/users/${owner.id}`, {
    token: owner.token,
    body: { email: to.email },
  });
  expect(res.statusCode, res.body).toBe(200);
  const mail = await t.lastMail(to.email);
  const id = /\/dashboard\/([0-9a-f-]{36})/.exec(mail?.text_body ?? '')?.[1];
  if (!id) throw new Error(`no transfer mailed to ${to.email}`);
  return id;
}

async function ownerOf(sid: number): Promise<number | undefined> {
  const row = await t.app.db
    .selectFrom('servers')
    .select('user_id')
    .where('id', '=', sid)
    .executeTakeFirst();
  return row?.user_id;
}

/** The server leaves its owner without passing through an accept: its offers stay open. */
async function handOver(sid: number, to: TestUser): Promise<void> {
  await t.app.db.updateTable('servers').set({ user_id: to.id }).where('id', '=', sid).execute();
  const open = await t.app.db
    .selectFrom('server_transfers')
    .select('id')
    .where('server_id', '=', sid)
    .where('voided_at', 'is', null)
    .where('processed_at', 'is', null)
    .execute();
  expect(open).toHaveLength(1);
}

describe('an offer whose maker no longer owns the server, though it was never voided', () => {
  it('is refused on accept, and the server stays with its new owner', async () => {
    const [a, b, c] = await Promise.all([t.user(), t.user(), t.user()]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    await handOver(sid, c);

    const res = await t.call('GET', `/api/v1/transfer?uuid=${id}&processed=true`, {
      token: b.token,
    });
    expect(res.statusCode, res.body).toBe(410);
    expect((res.json() as { message: string }).message).toMatch(/no longer valid/i);
    expect(await ownerOf(sid)).toBe(c.id);
    const theirs = await t.call('GET', `/api/v1/servers/${sid}/users/${b.id}`, { token: b.token });
    expect(theirs.statusCode).toBe(404);
  });

  it('reads as no longer valid on its link', async () => {
    const [a, b, c] = await Promise.all([t.user(), t.user(), t.user()]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    await handOver(sid, c);

    const shown = await t.call('GET', `/api/v1/transfer/${id}`, { token: b.token });
    expect(shown.statusCode, shown.body).toBe(410);
    // Nor does it tell B who holds the server now.
    expect(shown.body).not.toContain(c.email);
  });
});
