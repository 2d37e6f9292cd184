import { randomUUID } from 'node:crypto';
import { type Fixture, type Row, SELF } from './support';

/** A transfer offered to the fixture owner by another user: read-only rows share one. */
const offers = new WeakMap<object, Promise<string>>();
function offerToOwner(f: Fixture): Promise<string> {
  let offer = offers.get(f.t);
  if (!offer) {
    offer = (async () => {
      const giver = await f.t.app.services.users.create({
        email: `giver-${randomUUID()}@example.com`,
        user_name: 'Giver',
        password_hash: 'x',
      });
      const server = await f.t.app.services.servers.create(giver.id, { name: 'given' });
      const id = randomUUID();
      const created = new Date();
      await f.t.app.db
        .insertInto('server_transfers')
        .values({
          id,
          server_id: server.id,
          from_user_id: giver.id,
          to_email: f.owner.email,
          created_at: created.toISOString(),
          expires_at: new Date(created.getTime() + 86_400_000).toISOString(),
          processed_at: null,
          voided_at: null,
        })
        .execute();
      return id;
    })();
    offers.set(f.t, offer);
  }
  return offer;
}

/**
 * Authorization matrix rows of transfer offers (tests/api/matrix.test.ts checks one per route).
 * An offer is its recipient's: anyone else, admins included, gets the 404 of an unknown id.
 */
export const rows: Row[] = [
  {
    route: 'GET /api/v1/transfer/:uuid',
    target: offerToOwner,
    expect: { ...SELF, admin: 404 },
  },
];
