import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { TestUser } from './helpers';
import { type FakeAgent, startFakeAgent } from './fakeAgent';
import { type LiveApp, startLiveApp } from './liveApp';
import { addSysuser } from './serverRows';

/**
 * An app's FTP accounts (spec "FTP", a resource under `app`) with a fake agent whose Pure-FTPd
 * accounts live in memory: create, list, change, delete (with its folder), refusals at their
 * field, the password never answered, offline writes settled on reconnect.
 * tests/system/ftp.test.ts logs in with a real FTP client.
 */
let live: LiveApp;
let owner: TestUser;
let agent: FakeAgent;
/** The fake server's accounts: user name -> what the agent was given. */
const accounts = new Map<
  string,
  { id: number; hash: string; directory: string; app: string; sys_user: string }
>();
const removedDirs: string[] = [];
const PASSWORD = 'a long ftp password';

function fakeFtpOps() {
  return {
    'ftp.set': (a: {
      id: number;
      username: string;
      sys_user: string;
      app: string;
      directory: string;
      password_hash: string | null;
    }) => {
      const same = accounts.get(a.username);
      if (same && same.id !== a.id)
        throw opFieldError('username', `The server has another FTP account named ${a.username}`);
      const hash = a.password_hash ?? same?.hash;
      if (!hash) throw opFieldError('password', 'The server does not have this account any more');
      accounts.set(a.username, { ...a, hash });
      return { path: `/home/${a.sys_user}/apps/${a.app}/${a.directory}` };
    },
    'ftp.remove': (a: { id: number; username: string; directory: string; delete_dir: boolean }) => {
      const had = accounts.get(a.username)?.id === a.id;
      if (had) accounts.delete(a.username);
      if (a.delete_dir) removedDirs.push(a.directory);
      return { removed: had };
    },
    'ftp.list': () =>
      [...accounts.entries()].map(([username, a]) => ({
        id: a.id,
        username,
        home: `/home/${a.sys_user}/apps/${a.app}${a.directory === '.' ? '' : `/${a.directory}`}`,
      })),
    'webapp.apply': (a: { name: string; user: string }) => ({
      path: `/home/${a.user}/apps/${a.name}`,
    }),
    'webapp.remove': () => ({ removed: true }),
  };
}

const path = (p: string) => `/api/v1/${p}/servers/${agent.server.id}/users/${owner.id}`;
const list = (app: number) => path(`ftp/webstacks/${app}`);
const one = (app: number, id: number) => path(`ftp/${id}/webstacks/${app}`);
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  live.t.call(method, url, { token: owner.token, body });

async function newApp(name: string): Promise<number> {
  const res = await call('POST', path('webstacks'), {
    name,
    domains: [`${name}.example`],
    sys_user: 'alice',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function add(app: number, body: Record<string, unknown>) {
  const res = await call('POST', list(app), { password: PASSWORD, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; status: string; path: string; directory: string };
}

let shop: number;
let blog: number;

beforeAll(async () => {
  live = await startLiveApp();
  owner = await live.t.user();
  agent = await startFakeAgent(live, owner, fakeFtpOps(), 'ftp-1');
  await addSysuser(live.t.app.db, agent.server.id, 'alice');
  shop = await newApp('shop');
  blog = await newApp('blog');
});
afterAll(async () => {
  live.disconnectAll();
  await live.close();
});

describe('FTP accounts of an app', () => {
  it('creates an account shut in a folder of the app, never answering its password', async () => {
    const made = await add(shop, { username: 'shop.deploy', directory: '/public//uploads/' });
    expect(made).toMatchObject({
      status: 'active',
      directory: 'public/uploads',
      path: '/home/alice/apps/shop/public/uploads',
    });
    const held = accounts.get('shop.deploy')!;
    // The server got a SHA-512 crypt hash, never the password.
    expect(held.hash).toMatch(/^\$6\$/);
    expect(held).toMatchObject({ app: 'shop', sys_user: 'alice', directory: 'public/uploads' });
    expect(JSON.stringify(agent.calls)).not.toContain(PASSWORD);

    const root = await add(shop, { username: 'shop-root' });
    expect(root).toMatchObject({ directory: '.', path: '/home/alice/apps/shop' });

    const listed = await call('GET', list(shop));
    expect(listed.statusCode).toBe(200);
    expect(listed.json().total).toBe(2);
    const got = await call('GET', one(shop, made.id));
    for (const body of [listed.body, got.body, JSON.stringify(made)]) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain('password');
      expect(body).not.toContain('$6$');
    }
    // The other app lists none of them.
    expect((await call('GET', list(blog))).json().total).toBe(0);
    // The hash is dropped once the server has the account.
    const row = await live.t.app.db
      .selectFrom('ftp_accounts')
      .select('password_hash')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
  });

  it('refuses bad names, short passwords and folders leaving the app, at their field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'Bad Name' }, 'username'],
      [{ username: 'ab' }, 'username'],
      [{ username: '1abc' }, 'username'],
      [{ username: 'a'.repeat(33) }, 'username'],
      [{ username: 'okname', password: 'short' }, 'password'],
      [{ username: 'okname', directory: '../other' }, 'directory'],
      [{ username: 'okname', directory: 'public/../../x' }, 'directory'],
      [{ username: 'okname', directory: '.ssh' }, 'directory'],
      [{ username: 'okname', directory: 'a b' }, 'directory'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', list(shop), { password: PASSWORD, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(body)).toContain(field);
      expect(res.body).not.toContain(PASSWORD);
    }
    expect(accounts.has('okname')).toBe(false);
  });

  it('says a user name in use on the server at its field, from another app too', async () => {
    const again = await call('POST', list(blog), { username: 'shop.deploy', password: PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toHaveProperty('username');
  });

  it('lands one of two accounts of one name asked at once, and says why of the other', async () => {
    const both = await Promise.all(
      [shop, shop].map((app) =>
        call('POST', list(app), { username: 'twin', password: PASSWORD, directory: 'twin' }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const refused = both.find((r) => r.statusCode === 400)!;
    expect(refused.json().errors).toHaveProperty('username');
    const rows = await live.t.app.db
      .selectFrom('ftp_accounts')
      .select('id')
      .where('username', '=', 'twin')
      .execute();
    expect(rows).toHaveLength(1);
    expect(accounts.get('twin')?.id).toBe(rows[0]!.id);
  });

  it("keeps the server's own account of that name and says so", async () => {
    accounts.set('someone', {
      id: 999_999,
      hash: 'x',
      directory: '.',
      app: 'other',
      sys_user: 'bob',
    });
    const res = await call('POST', list(blog), { username: 'someone', password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.username).toMatch(/another FTP account/);
    expect(accounts.get('someone')!.id).toBe(999_999);
    // Refused by the server: nothing kept in the panel.
    expect((await call('GET', list(blog))).json().total).toBe(0);
  });

  it('changes the password and the folder, or only one of them', async () => {
    const made = await add(blog, { username: 'blogger', directory: 'public' });
    const first = accounts.get('blogger')!.hash;
    const moved = await call('PUT', one(blog, made.id), { directory: 'public/media' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ status: 'active', directory: 'public/media' });
    // No new password: the server keeps the one it has.
    expect(accounts.get('blogger')).toMatchObject({ hash: first, directory: 'public/media' });

    const repass = await call('PUT', one(blog, made.id), { password: 'another long password' });
    expect(repass.statusCode, repass.body).toBe(200);
    expect(accounts.get('blogger')!.hash).not.toBe(first);
    expect(repass.body).not.toContain('another long password');

    const bad = await call('PUT', one(blog, made.id), { directory: '../../etc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('directory');
    const short = await call('PUT', one(blog, made.id), { password: 'short' });
    expect(short.json().errors).toHaveProperty('password');
  });

  it("deletes an account, with its folder when asked, never the app's own folder", async () => {
    const sub = await add(blog, { username: 'uploads', directory: 'uploads' });
    const root = await add(blog, { username: 'blogroot' });

    const refused = await call('DELETE', `${one(blog, root.id)}?delhome=true`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.delhome).toMatch(/app's own folder/);
    expect(accounts.has('blogroot')).toBe(true);

    const gone = await call('DELETE', `${one(blog, sub.id)}?delhome=true`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ id: sub.id, status: 'deleted' });
    expect(accounts.has('uploads')).toBe(false);
    expect(removedDirs).toEqual(['uploads']);

    const plain = await call('DELETE', one(blog, root.id));
    expect(plain.json()).toEqual({ id: root.id, status: 'deleted' });
    expect(removedDirs).toEqual(['uploads']);
    expect((await call('GET', one(blog, root.id))).statusCode).toBe(404);
  });

  it('keeps a folder another account of the app uses', async () => {
    const outer = await add(blog, { username: 'outer', directory: 'data' });
    await add(blog, { username: 'inner', directory: 'data/inner' });
    const res = await call('DELETE', `${one(blog, outer.id)}?delhome=true`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.delhome).toMatch(/inner/);
    expect(accounts.has('outer')).toBe(true);
  });

  it("refuses another app's account under this app", async () => {
    const shops = (await call('GET', list(shop))).json().data as { id: number }[];
    const res = await call('PUT', one(blog, shops[0]!.id), { password: 'another long password' });
    expect(res.statusCode).toBe(404);
    expect((await call('DELETE', one(blog, shops[0]!.id))).statusCode).toBe(404);
  });

  it('reads back drift, and waits for an offline server', async () => {
    accounts.delete('blogger');
    const synced = await call('GET', `${list(blog)}?sync=true`);
    const rows = synced.json().data as { username: string; drift: string | null }[];
    expect(rows.find((r) => r.username === 'blogger')?.drift).toBe('missing');
    expect(rows.find((r) => r.username === 'outer')?.drift).toBeNull();

    await agent.disconnect();
    const queued = await call('POST', list(blog), { username: 'later', password: PASSWORD });
    expect(queued.statusCode).toBe(202);
    expect(queued.json().status).toBe('pending');
    await agent.reconnect();
    await expect
      .poll(async () => (await call('GET', one(blog, queued.json().id))).json().status)
      .toBe('active');
    expect(accounts.get('later')?.hash).toMatch(/^\$6\$/);
  });

  it("removes the app's accounts from the server with the app", async () => {
    const wiki = await newApp('wiki');
    await add(wiki, { username: 'wikiftp', directory: 'files' });
    expect(accounts.has('wikiftp')).toBe(true);
    const res = await call('DELETE', path(`webstacks/${wiki}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(accounts.has('wikiftp')).toBe(false);
    // Removed with the app, its folder is the app's to delete, not the account's.
    expect(removedDirs).not.toContain('files');
    const left = await live.t.app.db
      .selectFrom('ftp_accounts')
      .select('id')
      .where('username', '=', 'wikiftp')
      .execute();
    expect(left).toEqual([]);
  });

  it('keeps the app when its server refuses to remove an account of it (app.deleting)', async () => {
    const docs = await newApp('docs');
    await add(docs, { username: 'docsftp', directory: 'files' });
    const remove = agent.ops['ftp.remove']!;
    agent.ops['ftp.remove'] = () => {
      throw new OpError('failed', 'pure-pw: the account database is locked');
    };
    agent.calls.length = 0;
    try {
      const res = await call('DELETE', path(`webstacks/${docs}`));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(/account database is locked/);
    } finally {
      agent.ops['ftp.remove'] = remove;
    }
    // The app was never asked to go: it is there, active, on the panel and on its server.
    expect(agent.calls.map((c) => c.name)).not.toContain('webapp.remove');
    const app = await call('GET', path(`webstacks/${docs}`));
    expect(app.statusCode, app.body).toBe(200);
    expect(app.json().status).toBe('active');
    // Once the server lets the account go, the app goes with it.
    const again = await call('DELETE', path(`webstacks/${docs}`));
    expect(again.statusCode, again.body).toBe(200);
    expect(accounts.has('docsftp')).toBe(false);
  });
});
