import { type Fixture, type Row, SELF } from './support';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** A fresh open ticket of the owner's (with a screenshot when asked): a row's `:id` target. */
function ownersTicket(f: Fixture, withFile = false): Promise<number> {
  return f.t.app.services.tickets.open(
    f.owner.id,
    { subject: 'Matrix ticket', priority: 'normal', server_id: null },
    { authorId: f.owner.id, fromStaff: false, body: 'help' },
    withFile ? [{ name: 'shot.png', type: 'image/png', bytes: PNG }] : [],
  );
}

/** The attachment of a fresh ticket with a screenshot. */
async function ownersAttachment(f: Fixture): Promise<number> {
  const [first] = await f.t.app.services.tickets.thread(await ownersTicket(f, true));
  return first!.attachments[0]!.id;
}

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
