import { type Fixture, type Row, SELF } from './support';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/**
 * The matrix fills `:id` with the fixture's outbox id: these helpers make sure the owner has a
 * ticket (and an attachment) with exactly that id, opening tickets until the ids reach it.
 */
async function ensureTicket(f: Fixture, withFile = false): Promise<void> {
  const repo = f.t.app.services.tickets;
  for (;;) {
    const found = withFile ? await repo.attachment(f.outboxId) : await repo.find(f.outboxId);
    if (found) {
      if (found.user_id !== f.owner.id) throw new Error('fixture id taken by another user');
      return;
    }
    await repo.open(
      f.owner.id,
      { subject: 'Matrix ticket', priority: 'normal', server_id: null },
      { authorId: f.owner.id, fromStaff: false, body: 'help' },
      withFile ? [{ name: 'shot.png', type: 'image/png', bytes: PNG }] : [],
    );
  }
}

async function openTicket(f: Fixture): Promise<void> {
  await ensureTicket(f);
  await f.t.app.services.tickets.setStatus(f.outboxId, 'open');
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
  {
    route: 'GET /api/v1/supportcs/ticket/:id/users/:uid',
    body: async (f) => void (await ensureTicket(f)),
    expect: SELF,
  },
  {
    route: 'POST /api/v1/supportcs/ticket/:id/users/:uid',
    body: async (f, role) => (await openTicket(f), { message: `Reply from ${role}` }),
    expect: created,
  },
  {
    route: 'PUT /api/v1/supportcs/updateticket/:id/users/:uid',
    // Close an open ticket, reopen a closed one: every allowed caller changes something.
    body: async (f) => {
      await ensureTicket(f);
      const ticket = await f.t.app.services.tickets.find(f.outboxId);
      return { status: ticket?.status === 'closed' ? 'open' : 'closed' };
    },
    expect: SELF,
  },
  {
    route: 'GET /api/v1/supportcs/attachments/:id/users/:uid',
    body: async (f) => void (await ensureTicket(f, true)),
    expect: SELF,
  },
];
