import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket, TicketThread } from '../../resources/tickets';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** Support tickets: open, list, thread, replies both ways with mails, close/reopen, attachments. */
let t: TestApp;
let user: TestUser;
let other: TestUser;
let admin: TestUser;
let staff: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  [user, other, admin, staff] = await Promise.all([
    t.user(),
    t.user(),
    t.user({ admin: true }),
    t.user({ staff: true }),
  ]);
});
afterAll(() => t.close());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('pretend image data'),
]);
const file = (name: string, type: string, bytes: Buffer) => ({
  name,
  type,
  data: bytes.toString('base64'),
});

const open = (u: TestUser, body: object, uid = u.id) =>
  t.call('POST', `/api/v1/supportcs/users/${uid}`, { token: u.token, body });
const list = (u: TestUser, query = '', uid = u.id) =>
  t.call('GET', `/api/v1/supportcs/tickets/users/${uid}${query}`, { token: u.token });
const read = (u: TestUser, id: number, uid = u.id) =>
  t.call('GET', `/api/v1/supportcs/ticket/${id}/users/${uid}`, { token: u.token });
const reply = (u: TestUser, id: number, body: object, uid = u.id) =>
  t.call('POST', `/api/v1/supportcs/ticket/${id}/users/${uid}`, { token: u.token, body });
const setStatus = (u: TestUser, id: number, status: string, uid = u.id) =>
  t.call('PUT', `/api/v1/supportcs/updateticket/${id}/users/${uid}`, {
    token: u.token,
    body: { status },
  });
const download = (u: TestUser, id: number, uid = u.id) =>
  t.call('GET', `/api/v1/supportcs/attachments/${id}/users/${uid}`, { token: u.token });

async function newTicket(u: TestUser, subject = 'Site is down'): Promise<TicketThread> {
  const res = await open(u, { subject, priority: 'urgent', message: 'Nginx answers 502' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('opening and listing tickets', () => {
  it('opens a ticket with its first message and mails the admins', async () => {
    const ticket = await newTicket(user, 'Cannot reach my server');
    expect(ticket).toMatchObject({
      user_id: user.id,
      email: user.email,
      subject: 'Cannot reach my server',
      priority: 'urgent',
      status: 'open',
      server_id: null,
      messages: 1,
    });
    expect(ticket.thread).toEqual([
      expect.objectContaining({ from_staff: false, body: 'Nginx answers 502', attachments: [] }),
    ]);
    const mail = await t.lastMail(admin.email);
    expect(mail?.subject).toBe(`[Ticket #${ticket.id}] New ticket: Cannot reach my server`);
    expect(mail?.text_body).toContain(`http://panel.test/ticket-response/${ticket.id}`);
  });

  it('validates subject, priority and message with clear messages', async () => {
    const res = await open(user, { subject: 'x', priority: 'asap', message: '' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/At least 3 characters/);
  });

  it('takes a server of the user, and refuses anyone else’s like a missing one', async () => {
    const mine = await t.app.services.servers.create(user.id, { name: 'web-1' });
    const theirs = await t.app.services.servers.create(other.id, { name: 'theirs' });
    const ok = await open(user, { subject: 'About web-1', server_id: mine.id, message: 'Hi' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      server_id: mine.id,
      server_name: mine.name,
      priority: 'normal',
    });
    const foreign = await open(user, {
      subject: 'About theirs',
      server_id: theirs.id,
      message: 'x',
    });
    const missing = await open(user, { subject: 'About nothing', server_id: 999999, message: 'x' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toBe(missing.body);
    expect(foreign.json().errors).toEqual({ server_id: 'Pick one of your servers' });
  });

  it('takes a server shared with the user through a team', async () => {
    const owner = await t.user();
    const member = await t.user();
    const server = await t.app.services.servers.create(owner.id, { name: 'team-web' });
    const team = await t.call('POST', `/api/v1/teams/users/${owner.id}`, {
      token: owner.token,
      body: { name: 'Support team' },
    });
    const teamPath = `/api/v1/teams/${team.json().id}/users/${owner.id}`;
    const shared = await t.call('PATCH', teamPath, {
      token: owner.token,
      body: { invite: [member.email], share: [server.id] },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const invite = /invite=([0-9a-f-]{36})/.exec((await t.lastMail(member.email))!.text_body)![1];
    const accepted = await t.call('POST', `/api/v1/team-invites/${invite}/users/${member.id}`, {
      token: member.token,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const res = await open(member, { subject: 'Team server', server_id: server.id, message: 'x' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ user_id: member.id, server_id: server.id });
  });

  it('lists under tickets.ticket, filtered by status and paginated', async () => {
    const u = await t.user();
    const a = await newTicket(u, 'First');
    const b = await newTicket(u, 'Second');
    const c = await newTicket(u, 'Third');
    expect((await setStatus(u, a.id, 'closed')).statusCode).toBe(200);

    const all = await list(u);
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(3);
    expect(all.json().tickets.ticket.map((x: Ticket) => x.subject)).toEqual([
      'First', // closing touched it last
      'Third',
      'Second',
    ]);
    const closed = (await list(u, '?status=closed')).json();
    expect(closed.total).toBe(1);
    expect(closed.tickets.ticket[0].id).toBe(a.id);
    const page = (await list(u, '?status=open&perPage=1&page=2&sort=created_at&order=ASC')).json();
    expect(page.total).toBe(2);
    expect(page.tickets.ticket.map((x: Ticket) => x.id)).toEqual([c.id]);
    expect(b.id).toBeLessThan(c.id);
    expect((await list(u, '?status=answered')).json()).toEqual({
      tickets: { ticket: [] },
      total: 0,
    });
    expect((await list(u, '?status=pending')).statusCode).toBe(400);
  });

  it('a user lists only their own; an admin at their own id sees every ticket, by email too', async () => {
    const mine = await newTicket(other, 'Other’s ticket');
    const own = (await list(other)).json().tickets.ticket as Ticket[];
    expect(own.every((x) => x.user_id === other.id)).toBe(true);
    expect((await list(user)).json().tickets.ticket.map((x: Ticket) => x.id)).not.toContain(
      mine.id,
    );

    const desk = (await list(admin, '?perPage=500')).json().tickets.ticket as Ticket[];
    expect(new Set(desk.map((x) => x.user_id))).toEqual(
      new Set([user.id, other.id, ...desk.map((x) => x.user_id)]),
    );
    expect(desk.map((x) => x.id)).toContain(mine.id);
    expect(desk.some((x) => x.user_id === user.id)).toBe(true);
    const byEmail = (
      await list(admin, `?type=email&value=${encodeURIComponent(other.email)}`)
    ).json();
    expect(byEmail.tickets.ticket.length).toBeGreaterThan(0);
    expect(byEmail.tickets.ticket.every((x: Ticket) => x.email === other.email)).toBe(true);
    // An admin naming a user sees that user's tickets only.
    const named = (await list(admin, '', other.id)).json().tickets.ticket as Ticket[];
    expect(named.every((x) => x.user_id === other.id)).toBe(true);
    // Admin staff reach Users and Servers only: no desk, no one else's list.
    expect((await list(staff, '', other.id)).statusCode).toBe(404);
    expect((await list(staff)).json().total).toBe(0);
  });
});

describe('the thread', () => {
  it('someone else’s ticket answers exactly like a missing one', async () => {
    const ticket = await newTicket(user);
    const foreign = await read(other, ticket.id);
    const missing = await read(other, 999999);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect((await read(staff, ticket.id)).statusCode).toBe(404);
    expect((await reply(other, ticket.id, { message: 'hi' })).statusCode).toBe(404);
    expect((await setStatus(other, ticket.id, 'closed')).statusCode).toBe(404);
    // Naming the owner's id does not help another user either.
    expect((await read(other, ticket.id, user.id)).statusCode).toBe(404);
  });

  it('an admin answers: status answered, the user gets a mail; the user replies: the admins get one', async () => {
    const ticket = await newTicket(user, 'Slow site');
    const answer = await reply(admin, ticket.id, { message: 'We are looking into it' });
    expect(answer.statusCode, answer.body).toBe(201);
    const thread = answer.json() as TicketThread;
    expect(thread.status).toBe('answered');
    expect(thread.thread.at(-1)).toMatchObject({
      from_staff: true,
      body: 'We are looking into it',
    });
    expect(thread.thread.at(-1)?.author).toMatch(/\(Support\)$/);
    const toUser = await t.lastMail(user.email);
    expect(toUser?.subject).toBe(`[Ticket #${ticket.id}] Slow site`);
    expect(toUser?.text_body).toContain('We are looking into it');

    const back = await reply(user, ticket.id, { message: 'Thanks, still slow' });
    expect(back.json().status).toBe('open');
    expect(back.json().thread.at(-1)).toMatchObject({ from_staff: false });
    const toAdmin = await t.lastMail(admin.email);
    expect(toAdmin?.subject).toBe(`[Ticket #${ticket.id}] Slow site`);
    expect(toAdmin?.text_body).toContain('Thanks, still slow');

    const seen = (await read(user, ticket.id)).json() as TicketThread;
    expect(seen.thread.map((m) => m.body)).toEqual([
      'Nginx answers 502',
      'We are looking into it',
      'Thanks, still slow',
    ]);
    expect(seen.messages).toBe(3);
  });

  it('closes and reopens; a closed ticket takes no reply', async () => {
    const ticket = await newTicket(user);
    const closed = await setStatus(user, ticket.id, 'closed');
    expect(closed.json()).toMatchObject({ id: ticket.id, status: 'closed' });
    expect((await setStatus(user, ticket.id, 'closed')).json().message).toBe(
      'This ticket is already closed',
    );
    const refused = await reply(user, ticket.id, { message: 'one more thing' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This ticket is closed: reopen it to reply');
    expect((await setStatus(admin, ticket.id, 'open')).json().status).toBe('open');
    expect((await setStatus(user, ticket.id, 'open')).statusCode).toBe(400);
    expect((await setStatus(user, ticket.id, 'answered')).statusCode).toBe(400);
    expect((await reply(user, ticket.id, { message: 'one more thing' })).statusCode).toBe(201);
  });
});

describe('attachments', () => {
  it('stores files under random names and serves them to the owner and admins only', async () => {
    const res = await open(user, {
      subject: 'Screenshot',
      message: 'See attached',
      attachments: [
        file('../../etc/pass"wd.png', 'image/png', PNG),
        file('nginx error.log', 'text/plain', Buffer.from('502 Bad Gateway\n')),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [png, log] = (res.json() as TicketThread).thread[0]!.attachments;
    expect(png).toMatchObject({
      name: '../../etc/pass"wd.png',
      type: 'image/png',
      size: PNG.length,
    });
    expect(log).toMatchObject({ name: 'nginx error.log', type: 'text/plain' });

    const stored = fs.readdirSync(path.join(t.config.dataDir, 'ticket-attachments'));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.every((n) => /^[0-9a-f]{32}$/.test(n))).toBe(true);

    const got = await download(user, png!.id);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename=".._.._etc_pass_wd.png"; filename*=UTF-8''..%2F..%2Fetc%2Fpass%22wd.png`,
    );
    const text = await download(user, log!.id);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toBe('502 Bad Gateway\n');

    expect((await download(admin, png!.id)).statusCode).toBe(200);
    expect((await download(admin, png!.id, user.id)).statusCode).toBe(200);
    const foreign = await download(other, png!.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe((await download(other, 999999)).body);
    expect((await download(other, png!.id, user.id)).statusCode).toBe(404);
    expect((await download(staff, png!.id)).statusCode).toBe(404);

    // A file gone from disk (a restored backup without DATA_DIR) answers 404, not 500.
    for (const name of stored) fs.rmSync(path.join(t.config.dataDir, 'ticket-attachments', name));
    const gone = await download(user, log!.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('This file is no longer available');
  });

  it('a deleted account takes its tickets and their files on disk with it (user.deleting)', async () => {
    const doomed = await t.user();
    const dir = path.join(t.config.dataDir, 'ticket-attachments');
    const before = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
    const res = await open(doomed, {
      subject: 'Logs',
      message: 'Attached',
      attachments: [file('error.log', 'text/plain', Buffer.from('upstream timed out\n'))],
    });
    expect(res.statusCode, res.body).toBe(201);
    // An admin's answer with a file of its own, on the same ticket.
    const ticket = res.json() as TicketThread;
    const answer = await reply(admin, ticket.id, {
      message: 'Try this',
      attachments: [file('fix.txt', 'text/plain', Buffer.from('proxy_read_timeout 120;\n'))],
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const theirs = fs.readdirSync(dir).filter((n) => !before.has(n));
    expect(theirs).toHaveLength(2);
    // Another user's ticket and file stay.
    const kept = await open(other, {
      subject: 'Mine',
      message: 'Mine too',
      attachments: [file('keep.txt', 'text/plain', Buffer.from('keep\n'))],
    });
    const keptFile = (kept.json() as TicketThread).thread[0]!.attachments[0]!;

    const gone = await t.call('DELETE', `/api/v1/users/${doomed.id}`, {
      token: doomed.token,
      body: { password: doomed.password },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const left = fs.readdirSync(dir);
    for (const name of theirs) expect(left).not.toContain(name);
    expect((await read(admin, ticket.id, admin.id)).statusCode).toBe(404);
    expect((await download(other, keptFile.id)).statusCode).toBe(200);
  });

  it('a reply carries attachments too, from either side', async () => {
    const ticket = await newTicket(user);
    const res = await reply(admin, ticket.id, {
      message: 'Here is the fix',
      attachments: [file('fix.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'))],
    });
    expect(res.statusCode, res.body).toBe(201);
    const pdf = (res.json() as TicketThread).thread.at(-1)!.attachments[0]!;
    expect((await download(user, pdf.id)).headers['content-type']).toBe('application/pdf');
  });

  it('refuses more than 5 files, files over 5 MB, other types and bytes that lie about their type', async () => {
    const base = { subject: 'Files', message: 'x' };
    const six = Array.from({ length: 6 }, (_, i) => file(`f${i}.png`, 'image/png', PNG));
    const tooMany = await open(user, { ...base, attachments: six });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain('At most 5 files a message');

    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await open(user, { ...base, attachments: [file('big.png', 'image/png', big)] });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.body).toContain('Each file must be at most 5 MB');
    // Exactly 5 MB is fine.
    const fits = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - PNG.length)]);
    const exact = await open(user, { ...base, attachments: [file('fits.png', 'image/png', fits)] });
    expect(exact.statusCode, exact.body.slice(0, 200)).toBe(201);

    const html = await open(user, {
      ...base,
      attachments: [file('page.html', 'text/html', Buffer.from('<script>alert(1)</script>'))],
    });
    expect(html.statusCode).toBe(400);
    expect(html.body).toContain('Only PNG, JPEG, GIF, WebP, PDF, TXT and LOG files');

    const lying = await open(user, {
      ...base,
      attachments: [file('shot.png', 'image/png', Buffer.from('<svg onload=alert(1)>'))],
    });
    expect(lying.statusCode).toBe(400);
    expect(lying.json().errors).toEqual({ attachments: 'shot.png is not a valid image/png file' });

    const renamed = await open(user, {
      ...base,
      attachments: [file('shot.html', 'image/png', PNG)],
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.body).toContain('The file name does not match its type');

    const before = (await list(user, '?perPage=500')).json().total;
    const binaryText = await open(user, {
      ...base,
      attachments: [file('x.txt', 'text/plain', Buffer.from([0x41, 0, 0x42]))],
    });
    expect(binaryText.statusCode).toBe(400);
    // A refused message leaves no ticket behind.
    expect((await list(user, '?perPage=500')).json().total).toBe(before);
  });
});
