import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSchema } from '../../resources/clone-events';
import { type TestApp, type TestUser, buildTestApp } from './helpers';

/** Long work as tasks with ordered events; the messages panel reads the clones and installs. */
let t: TestApp;
let user: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  [user, other] = await Promise.all([t.user(), t.user()]);
});
afterAll(() => t.close());

const clones = (query = '', u = user) =>
  t.call('GET', `/api/v1/clone-events/users/${u.id}${query}`, { token: u.token });

describe('clone-events/users/{uid}', () => {
  it('answers an empty list while there is nothing to show', async () => {
    const res = await clones();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], total: 0 });
  });

  it('answers the user’s clones and installs, newest first, each with its events in order', async () => {
    const { tasks } = t.app.services;
    const first = await tasks.create({ userId: user.id, kind: 'clone', name: 'blog -> blog-copy' });
    for (const [event, code] of [
      ['Copying files', 2],
      ['Copying the database', 5],
      ['Rewriting URLs', 8],
      ['Clone completed', 10],
    ] as const)
      await tasks.addEvent(first, event, code);
    await tasks.finish(first, 'completed');
    await new Promise((r) => setTimeout(r, 5)); // distinct created_at
    const second = await tasks.create({ userId: user.id, kind: 'clone', name: 'shop -> staging' });
    await tasks.addEvent(second, 'Copying files', 3);
    await new Promise((r) => setTimeout(r, 5));
    const install = await tasks.create({ userId: user.id, kind: 'install', name: 'WordPress' });
    await tasks.addEvent(install, 'Downloading', 4);
    // Other work, or another user's: never in the list.
    await tasks.create({ userId: user.id, kind: 'mailbox-import', name: 'nightly' });
    const foreign = await tasks.create({ userId: other.id, kind: 'clone', name: 'theirs' });
    await tasks.addEvent(foreign, 'Copying files', 4);

    const res = await clones();
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: unknown[]; total: number };
    expect(body.total).toBe(3);
    for (const clone of body.data) expect(cloneSchema.strict().safeParse(clone).success).toBe(true);
    expect(body.data).toEqual([
      {
        id: install,
        kind: 'install',
        name: 'WordPress',
        status: 'running',
        created_at: expect.any(String),
        events: [{ event: 'Downloading', code: 4 }],
      },
      {
        id: second,
        kind: 'clone',
        name: 'shop -> staging',
        status: 'running',
        created_at: expect.any(String),
        events: [{ event: 'Copying files', code: 3 }],
      },
      {
        id: first,
        kind: 'clone',
        name: 'blog -> blog-copy',
        status: 'completed',
        created_at: expect.any(String),
        events: [
          { event: 'Copying files', code: 2 },
          { event: 'Copying the database', code: 5 },
          { event: 'Rewriting URLs', code: 8 },
          { event: 'Clone completed', code: 10 },
        ],
      },
    ]);
  });

  it('pages and sorts', async () => {
    const page = (await clones('?perPage=1&page=3')).json() as {
      data: { name: string }[];
      total: number;
    };
    expect(page.total).toBe(3);
    expect(page.data.map((c) => c.name)).toEqual(['blog -> blog-copy']);
    const oldest = (await clones('?sort=created_at&order=ASC&perPage=1')).json() as {
      data: { name: string; events: unknown[] }[];
    };
    expect(oldest.data[0]?.name).toBe('blog -> blog-copy');
    expect(oldest.data[0]?.events).toHaveLength(4);
  });

  it('answers one task by `?id=` (an install page follows its own), never another user’s', async () => {
    const all = (await clones()).json() as { data: { id: number; name: string }[] };
    const wanted = all.data.find((c) => c.name === 'WordPress')!;
    const one = (await clones(`?id=${wanted.id}`)).json() as {
      data: { id: number }[];
      total: number;
    };
    expect(one).toMatchObject({ total: 1, data: [{ id: wanted.id }] });
    const theirs = (await clones(`?id=${wanted.id}`, other)).json() as { total: number };
    expect(theirs.total).toBe(0);
  });

  it('the other user sees only their own clone', async () => {
    const body = (await clones('', other)).json() as { data: { name: string }[] };
    expect(body.data.map((c) => c.name)).toEqual(['theirs']);
  });
});

describe('servers/users/{uid}', () => {
  const addServer = (userId: number, name: string, connected: 0 | 1) =>
    t.app.db
      .insertInto('servers')
      .values({
        uuid: crypto.randomUUID(),
        user_id: userId,
        name,
        ip4: '203.0.113.10',
        provider: null,
        connected,
        is_available: 1,
        is_shared: 0,
        is_accessible: 1,
        os_version: 'Debian 12',
        timezone: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

  it("lists the user's servers only, with flags as booleans, sortable by name", async () => {
    await addServer(user.id, 'web-2', 1);
    await addServer(user.id, 'cs-pending', 0);
    await addServer(other.id, 'not-mine', 1);
    const res = await t.call('GET', `/api/v1/servers/users/${user.id}?sort=name&order=ASC`, {
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Record<string, unknown>[]; total: number };
    expect(body.total).toBe(2);
    expect(body.data.map((s) => s.name)).toEqual(['cs-pending', 'web-2']);
    expect(body.data[1]).toMatchObject({
      ip4: '203.0.113.10',
      connected: true,
      is_available: true,
      is_shared: false,
      is_accessible: true,
      os_version: 'Debian 12',
      timezone: null,
    });
    expect(Object.keys(body.data[0]!)).not.toContain('user_id');
  });
});
