import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_OPEN_OFFERS_PER_SERVER,
  MAX_TRANSFER_OFFERS_PER_DAY,
} from '../../server/handlers/servers/transfers';
import { type TestApp, type TestUser, buildTestApp } from './helpers';
import { PLAN_IDS } from '../../features/plans/api';

/** Owners on Pro: no plan limit in the way (plan-limits.test.ts tests the limits). */
const PRO = { plan: PLAN_IDS.pro };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function newServer(owner: TestUser, name = `srv-${randomUUID().slice(0, 6)}`) {
  const res = await t.call('POST', `/api/v1/servers/users/${owner.id}?action=create`, {
    token: owner.token,
    body: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}

function offer(owner: TestUser, sid: number, email: string) {
  return t.call('POST', `/api/v1/transfer/servers/${sid}/users/${owner.id}`, {
    token: owner.token,
    body: { email },
  });
}

/** Offers the server and answers the offer's id, read from the link of the mail it sent. */
async function offered(owner: TestUser, sid: number, to: TestUser): Promise<string> {
  const res = await offer(owner, sid, to.email);
  expect(res.statusCode, res.body).toBe(200);
  const mail = await t.lastMail(to.email);
  const id = /\/dashboard\/([0-9a-f-]{36})/.exec(mail?.text_body ?? '')?.[1];
  if (!id) throw new Error(`no transfer mailed to ${to.email}`);
  return id;
}

const accept = (user: TestUser, id: string) =>
  t.call('GET', `/api/v1/transfer?uuid=${id}&processed=true`, { token: user.token });
const read = (user: TestUser | null, id: string) =>
  t.call('GET', `/api/v1/transfer/${id}`, { token: user?.token });

async function ownerOf(sid: number): Promise<number | undefined> {
  const row = await t.app.db
    .selectFrom('servers')
    .select('user_id')
    .where('id', '=', sid)
    .executeTakeFirst();
  return row?.user_id;
}

async function mailsTo(email: string): Promise<number> {
  const rows = await t.app.db
    .selectFrom('outbox')
    .select('id')
    .where('to_addr', '=', email)
    .execute();
  return rows.length;
}

describe('a stale transfer offer', () => {
  it('cannot move a server away from the user who accepted another offer', async () => {
    const [a, b, c] = await Promise.all([t.user(PRO), t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const toB = await offered(a, sid, b);
    const toC = await offered(a, sid, c);

    const won = await accept(b, toB);
    expect(won.statusCode, won.body).toBe(200);
    expect(await ownerOf(sid)).toBe(b.id);

    const late = await accept(c, toC);
    expect(late.statusCode, late.body).toBe(410);
    expect((late.json() as { message: string }).message).toMatch(/no longer valid/i);
    expect(await ownerOf(sid)).toBe(b.id);
    // The new owner still reaches their server; the one who came late does not.
    const mine = await t.call('GET', `/api/v1/servers/${sid}/users/${b.id}`, { token: b.token });
    expect(mine.statusCode).toBe(200);
    const theirs = await t.call('GET', `/api/v1/servers/${sid}/users/${c.id}`, {
      token: c.token,
    });
    expect(theirs.statusCode).toBe(404);
    // The voided offer reads as such, not as an offer to accept.
    const shown = await read(c, toC);
    expect(shown.statusCode, shown.body).toBe(410);
  });

  it('of two accepts at the same moment, exactly one wins', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b, c] = await Promise.all([t.user(PRO), t.user(PRO), t.user(PRO)]);
      const sid = await newServer(a);
      const toB = await offered(a, sid, b);
      const toC = await offered(a, sid, c);
      const [rb, rc] = await Promise.all([accept(b, toB), accept(c, toC)]);
      const statuses = [rb.statusCode, rc.statusCode].sort();
      expect(statuses, `${rb.body} / ${rc.body}`).toEqual([200, 410]);
      const [winner, loser, lost] = rb.statusCode === 200 ? [b, c, rc] : ([c, b, rb] as const);
      expect((lost.json() as { message: string }).message).toMatch(/no longer valid/i);
      expect(await ownerOf(sid)).toBe(winner.id);
      // The loser's claim was undone: their offer is void, not accepted, and stays refused.
      const again = await accept(loser, rb.statusCode === 200 ? toC : toB);
      expect(again.statusCode, again.body).toBe(410);
      expect(await ownerOf(sid)).toBe(winner.id);
    }
  });

  it('the same offer accepted twice at once moves the server once', async () => {
    const [a, b] = await Promise.all([t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    const answers = await Promise.all([accept(b, id), accept(b, id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await ownerOf(sid)).toBe(b.id);
  });

  it('is void once the server has changed hands, even back', async () => {
    const [a, b, c] = await Promise.all([t.user(PRO), t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const toC = await offered(a, sid, c);
    const toB = await offered(a, sid, b);
    expect((await accept(b, toB)).statusCode).toBe(200);
    // B gives it back to A: A owns it again, but A's old offer to C stays void.
    const back = await offered(b, sid, a);
    expect((await accept(a, back)).statusCode).toBe(200);
    expect(await ownerOf(sid)).toBe(a.id);
    const late = await accept(c, toC);
    expect(late.statusCode, late.body).toBe(410);
    expect(await ownerOf(sid)).toBe(a.id);
  });

  it('is gone with a removed server', async () => {
    const [a, b] = await Promise.all([t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    const removed = await t.call('DELETE', `/api/v1/servers/${sid}/users/${a.id}`, {
      token: a.token,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await read(b, id)).statusCode).toBe(404);
    expect((await accept(b, id)).statusCode).toBe(404);
  });

  it('expires after its seven days', async () => {
    const [a, b] = await Promise.all([t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    const row = await t.app.db
      .selectFrom('server_transfers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(7 * 86_400_000);
    await t.app.db
      .updateTable('server_transfers')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const shown = await read(b, id);
    expect(shown.statusCode).toBe(410);
    expect((shown.json() as { message: string }).message).toMatch(/expired/);
    expect((await accept(b, id)).statusCode).toBe(410);
    expect(await ownerOf(sid)).toBe(a.id);
  });
});

describe('reading an offer: GET transfer/{uuid}', () => {
  it('shows the recipient the server, who offers it and until when', async () => {
    const [a, b] = await Promise.all([t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a, 'web-offered');
    const id = await offered(a, sid, b);
    const res = await read(b, id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Record<string, unknown>;
    const sender = await t.app.services.users.findById(a.id);
    expect(body).toEqual({
      id,
      server_name: 'web-offered',
      from_name: sender!.user_name,
      from_email: a.email,
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    // Reading changes nothing.
    expect(await ownerOf(sid)).toBe(a.id);
    expect((await accept(b, id)).statusCode).toBe(200);
    // Once accepted, the link says so.
    const after = await read(b, id);
    expect(after.statusCode).toBe(409);
    expect((after.json() as { message: string }).message).toBe(
      'This transfer was accepted already',
    );
  });

  it('answers someone else, or an unknown id, as if there were no offer', async () => {
    const [a, b, stranger] = await Promise.all([t.user(PRO), t.user(PRO), t.user(PRO)]);
    const sid = await newServer(a);
    const id = await offered(a, sid, b);
    const foreign = await read(stranger, id);
    const unknown = await read(stranger, randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    // Not even the one who made it reads it here: it is the recipient's link.
    expect((await read(a, id)).statusCode).toBe(404);
    expect((await read(null, id)).statusCode).toBe(401);
    // A malformed id names no offer either.
    const malformed = await t.call('GET', '/api/v1/transfer/not-a-uuid', { token: b.token });
    expect(malformed.statusCode).toBe(404);
  });
});

describe('offers cannot flood a mailbox', () => {
  it('one open offer per server and recipient: a second answers 409 and sends nothing', async () => {
    const a = await t.user(PRO);
    const sid = await newServer(a);
    const outside = `outside-${randomUUID()}@example.net`;
    expect((await offer(a, sid, outside)).statusCode).toBe(200);
    const again = await offer(a, sid, outside);
    expect(again.statusCode, again.body).toBe(409);
    expect(await mailsTo(outside)).toBe(1);
  });

  it(`at most ${MAX_OPEN_OFFERS_PER_SERVER} open offers per server`, async () => {
    const a = await t.user(PRO);
    const sid = await newServer(a);
    for (let n = 0; n < MAX_OPEN_OFFERS_PER_SERVER; n++)
      expect((await offer(a, sid, `n${n}-${randomUUID()}@example.net`)).statusCode).toBe(200);
    const extra = `extra-${randomUUID()}@example.net`;
    const refused = await offer(a, sid, extra);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await mailsTo(extra)).toBe(0);
    // An expired offer no longer counts.
    await t.app.db
      .updateTable('server_transfers')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('server_id', '=', sid)
      .execute();
    expect((await offer(a, sid, extra)).statusCode).toBe(200);
  });

  it(`at most ${MAX_TRANSFER_OFFERS_PER_DAY} offers per user a day`, async () => {
    const a = await t.user(PRO);
    const sids: number[] = [];
    for (let n = 0; n < 5; n++) sids.push(await newServer(a));
    const target = `flooded-${randomUUID()}@example.net`;
    const answers: number[] = [];
    for (const sid of sids)
      for (let n = 0; n < 3; n++) {
        const to = n === 0 ? target : `other-${randomUUID()}@example.net`;
        answers.push((await offer(a, sid, to)).statusCode);
      }
    expect(answers.filter((s) => s === 200)).toHaveLength(MAX_TRANSFER_OFFERS_PER_DAY);
    expect(answers.slice(MAX_TRANSFER_OFFERS_PER_DAY).every((s) => s === 429)).toBe(true);
    const last = await offer(a, sids[4]!, `late-${randomUUID()}@example.net`);
    expect(last.statusCode).toBe(429);
    expect((last.json() as { message: string }).message).toMatch(/24 hours/);
    expect(await mailsTo(target)).toBe(4);
  });

  it('the subject carries no text the sender chose; the body quotes it plainly', async () => {
    const a = await t.user(PRO);
    const renamed = await t.call('PUT', `/api/v1/users/${a.id}`, {
      token: a.token,
      body: { user_name: 'Free money' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const sid = await newServer(a, 'click-here-now');
    const to = `victim-${randomUUID()}@example.net`;
    expect((await offer(a, sid, to)).statusCode).toBe(200);
    const mail = await t.lastMail(to);
    expect(mail?.subject).toBe('A server is offered to you on Stackdeck');
    expect(mail?.text_body).toContain('"click-here-now"');
    expect(mail?.text_body).toContain('"Free money"');
    expect(mail?.text_body).toContain(a.email);
  });
});
