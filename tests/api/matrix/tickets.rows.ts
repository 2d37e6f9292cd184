import type { TestApp, TestUser } from '../helpers';
import { type Fixture, type Row, SELF } from './support';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** A fresh open ticket of a user's (with a screenshot when asked). */
function ticketOf(t: TestApp, userId: number, withFile = false): Promise<number> {
  return t.app.services.tickets.open(
    userId,
    { subject: 'Matrix ticket', priority: 'normal', server_id: null },
    { authorId: userId, fromStaff: false, body: 'help' },
    withFile ? [{ name: 'shot.png', type: 'image/png', bytes: PNG }] : [],
  );
}

/** The attachment of a fresh ticket of a user's with a screenshot. */
async function attachmentOf(t: TestApp, userId: number): Promise<number> {
  const [first] = await t.app.services.tickets.thread(await ticketOf(t, userId, true));
  return first!.attachments[0]!.id;
}

/** The owner's fresh ticket: a row's `:id` target. */
const ownersTicket = (f: Fixture) => ticketOf(f.t, f.owner.id);
const ownersAttachment = (f: Fixture) => attachmentOf(f.t, f.owner.id);

/** A stranger's ticket and attachment, for the derived "another account's row" rows. */
export const owned = {
  tickets: (t: TestApp, user: TestUser) => ticketOf(t, user.id),
  'ticket-attachments': (t: TestApp, user: TestUser) => attachmentOf(t, user.id),
};

const created = { ...SELF, owner: 201, admin: 201, acting: 201 };

/** Authorization matrix rows of support tickets: one per route, as tests/api/matrix.test.ts checks. */
export const rows: Row[] = [
  { route: 'GET /api/v1/supportcs/tickets/users/:uid', query: () => '?status=open', expect: SELF },
  {
    route: 'POST /api/v1/supportcs/users/:uid',
    body: (_, role) => ({ subject: `Help from ${role}`, priority: 'high', message: 'It broke' }),
    expect: created,
  },
  { route: 'GET /api/v1/supportcs/ticket/:id/users/:uid', target: ownersTicket, expect: SELF },
  {
    route: 'POST /api/v1/supportcs/ticket/:id/users/:uid',
    target: ownersTicket,
    body: (_, role) => ({ message: `Reply from ${role}` }),
    expect: created,
  },
  {
    route: 'PUT /api/v1/supportcs/updateticket/:id/users/:uid',
    target: ownersTicket,
    body: () => ({ status: 'closed' }),
    expect: SELF,
  },
  {
    route: 'GET /api/v1/supportcs/attachments/:id/users/:uid',
    target: ownersAttachment,
    expect: SELF,
  },
];
