import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import SQLite from '../../server/db/sqliteDriver';
import { type Declaration, EventBus, type Subscription } from '../../server/events/bus';
import { featureEventBus } from '../../server/features';

/** A panel-shaped Fastify instance: a real logger (lines kept) and a real SQLite database. */
async function panel(): Promise<{ app: FastifyInstance; logged: Record<string, unknown>[] }> {
  const logged: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  await sql`create table marks (name text not null)`.execute(db);
  app.decorate('db', db as unknown as Db);
  app.addHook('onClose', () => db.destroy());
  await app.ready();
  opened.push(app);
  return { app, logged };
}
const opened: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

const declare = (event: string, phase: 'before' | 'after'): Declaration => ({
  event,
  phase,
  owner: 'owner',
});
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const marks = async (db: Kysely<unknown> | Db) =>
  (await sql<{ name: string }>`select name from marks`.execute(db)).rows.map((r) => r.name);

describe('the event bus', () => {
  it('runs the subscribers of a before event in order, each awaited before the next', async () => {
    const { app } = await panel();
    const seen: string[] = [];
    const subscriber = (feature: string, ms: number): Subscription => ({
      event: 'app.deleting',
      feature,
      async run(payload) {
        seen.push(`${feature} starts on ${(payload as { id: number }).id}`);
        await wait(ms);
        seen.push(`${feature} done`);
      },
    });
    const bus = new EventBus(
      app,
      [declare('app.deleting', 'before')],
      [subscriber('cron', 30), subscriber('ftp', 1)],
    );
    await bus.emit('app.deleting', { id: 7 });
    expect(seen).toEqual(['cron starts on 7', 'cron done', 'ftp starts on 7', 'ftp done']);
    expect(bus.describe('app.deleting')?.features).toEqual(['cron', 'ftp']);
  });

  it("a before event's failing subscriber stops the rest, and its error is the emit's", async () => {
    const { app } = await panel();
    const ran: string[] = [];
    const bus = new EventBus(
      app,
      [declare('app.deleting', 'before')],
      [
        {
          event: 'app.deleting',
          feature: 'cron',
          run: async () => {
            ran.push('cron');
            throw new Error('the server refused');
          },
        },
        { event: 'app.deleting', feature: 'ftp', run: async () => void ran.push('ftp') },
      ],
    );
    await expect(bus.emit('app.deleting', {})).rejects.toThrow('the server refused');
    expect(ran).toEqual(['cron']);
  });

  it("an after event's failing subscriber is logged; the others run and the emit succeeds", async () => {
    const { app, logged } = await panel();
    const ran: string[] = [];
    const bus = new EventBus(
      app,
      [declare('app.deleted', 'after')],
      [
        {
          event: 'app.deleted',
          feature: 'cron',
          run: async () => {
            ran.push('cron');
            throw new Error('cache gone');
          },
        },
        { event: 'app.deleted', feature: 'ftp', run: async () => void ran.push('ftp') },
      ],
    );
    await expect(bus.emit('app.deleted', {})).resolves.toBeUndefined();
    expect(ran).toEqual(['cron', 'ftp']);
    const line = logged.find((l) => l.msg === 'a subscriber of app.deleted failed');
    expect(line).toMatchObject({ level: 50, event: 'app.deleted', feature: 'cron' });
    expect((line?.err as { message: string }).message).toBe('cache gone');
  });

  it("subscribers write in the owner's transaction: one failing rolls back all", async () => {
    const { app } = await panel();
    let fail = true;
    const bus = new EventBus(
      app,
      [declare('server.transferred', 'before')],
      [
        {
          event: 'server.transferred',
          feature: 'teams',
          run: async (_payload, { db, trx }) => {
            expect(trx).not.toBeNull();
            expect(db).toBe(trx);
            await sql`insert into marks (name) values ('teams')`.execute(db);
          },
        },
        {
          event: 'server.transferred',
          feature: 'zzz',
          run: async () => {
            if (fail) throw new Error('refused');
          },
        },
      ],
    );
    const transfer = () =>
      app.db.transaction().execute(async (trx) => {
        await sql`insert into marks (name) values ('owner')`.execute(trx);
        await bus.emit('server.transferred', {}, { trx });
      });
    await expect(transfer()).rejects.toThrow('refused');
    expect(await marks(app.db)).toEqual([]);
    fail = false;
    await transfer();
    expect(await marks(app.db)).toEqual(['owner', 'teams']);
  });

  it('without a transaction, subscribers get the panel database', async () => {
    const { app } = await panel();
    const bus = new EventBus(
      app,
      [declare('user.deleting', 'before')],
      [
        {
          event: 'user.deleting',
          feature: 'teams',
          run: async (_payload, context) => {
            expect(context).toMatchObject({ app, db: app.db, trx: null });
          },
        },
      ],
    );
    await bus.emit('user.deleting', {});
  });

  it('refuses an after event inside a transaction, an undeclared event, and two owners', async () => {
    const { app } = await panel();
    const bus = new EventBus(app, [declare('app.deleted', 'after')], []);
    await expect(
      app.db.transaction().execute((trx) => bus.emit('app.deleted', {}, { trx })),
    ).rejects.toThrow('app.deleted is an after event');
    await expect(bus.emit('app.deletd', {})).rejects.toThrow('app.deletd is not a declared event');
    expect(
      () =>
        new EventBus(
          app,
          [],
          [{ event: 'app.deletd', feature: 'cron', run: async () => undefined }],
        ),
    ).toThrow('cron subscribes to app.deletd, which no feature declares');
    expect(
      () =>
        new EventBus(
          app,
          [declare('app.deleted', 'after'), { ...declare('app.deleted', 'after'), owner: 'clone' }],
          [],
        ),
    ).toThrow('app.deleted is declared by owner and clone');
  });

  it("the panel's bus: each event's owner, phase and subscribers, in the order they run", async () => {
    const { app } = await panel();
    const bus = featureEventBus(app);
    const table = Object.fromEntries(
      [
        'app.deleting',
        'database.deleting',
        'app.rebuilding',
        'app.cloning',
        'firewall.ignore-changed',
        'server.removing',
        'server.creating',
        'server.transferred',
        'user.deleting',
        'team.member-removed',
        'task.failed',
        'payment.settled',
        'invoice.paid',
      ].map((event) => {
        const { declaration, features } = bus.describe(event)!;
        return [event, `${declaration.owner} ${declaration.phase}: ${features.join(', ')}`];
      }),
    );
    expect(table).toEqual({
      'app.deleting': 'webapps before: backups, cron, databases, ftp, mail',
      'database.deleting': 'databases before: backups',
      'app.rebuilding': 'webapps before: nodejs',
      'app.cloning': 'clone before: cron, nodejs',
      'firewall.ignore-changed': 'firewall before: fail2ban',
      'server.removing': 'panel before: alerts, backups',
      'server.creating': 'panel before: plans',
      'server.transferred': 'panel before: plans, teams',
      'user.deleting': 'panel before: backups, tickets',
      'team.member-removed': 'panel after: ',
      'task.failed': 'panel after: alerts',
      'payment.settled': 'payment-methods after: billing',
      'invoice.paid': 'billing after: referrals',
    });
  });
});
