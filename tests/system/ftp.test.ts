import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * FTP accounts on a real server: the panel's API drives the real agent in a sandbox with nginx,
 * PHP-FPM and Pure-FTPd, and `curl` inside the sandbox is the FTP client. Uploads land in the
 * app's folder as the app's user; a login never leaves its folder.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let shop: number;

const PASSWORD = 'a long ftp password 1';
const APP = '/home/alice/apps/shop';

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const accounts = () => path(`ftp/webstacks/${shop}`);
const account = (id: number) => path(`ftp/${id}/webstacks/${shop}`);

/** curl inside the sandbox: exit code (67: login refused) and output. */
async function ftp(user: string, password: string, url: string, extra: string[] = []) {
  const res = await sb.exec(
    ['curl', '-sS', '--max-time', '20', '--user', `${user}:${password}`, ...extra, url],
    { timeoutMs: 30_000 },
  );
  return { code: res.code, out: res.stdout, err: res.stderr };
}

const owner = async (file: string) =>
  (await sb.execOk(['stat', '-c', '%U:%G', file])).stdout.trim();
const exists = async (file: string) => (await sb.exec(['test', '-e', file])).code === 0;

async function create(body: Record<string, unknown>) {
  const res = await panel.api('POST', accounts(), { password: PASSWORD, ...body });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json(), res.body).toMatchObject({ status: 'active' });
  return res.json() as { id: number; path: string };
}

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'ftp', ['nginx', 'php8.2-fpm', 'pure-ftpd']));
  const user = await panel.api('POST', path('sysusers'), {
    user_name: 'alice',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const app = await panel.api('POST', path('webstacks'), {
    name: 'shop',
    domains: ['shop.test'],
    sys_user: 'alice',
  });
  expect(app.statusCode, app.body).toBe(201);
  shop = app.json().id as number;
  await sb.execOk(['tee', '/tmp/hello.txt'], { input: 'hello over ftp\n' });
}, 240_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('FTP accounts on a sandbox server', () => {
  let root: { id: number };

  it("uploads into the app's folder, as the app's user", async () => {
    root = await create({ username: 'shop.deploy' });
    // The first account started Pure-FTPd: the op answered only once port 21 accepts, so one
    // connect at once, without retrying, gets in.
    const at = await sb.exec(['bash', '-c', 'exec 3<>/dev/tcp/127.0.0.1/21']);
    expect(at.code, at.stderr).toBe(0);
    const up = await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/', ['-T', '/tmp/hello.txt']);
    expect(up.code, up.err).toBe(0);
    expect((await sb.execOk(['cat', `${APP}/hello.txt`])).stdout).toBe('hello over ftp\n');
    expect(await owner(`${APP}/hello.txt`)).toBe('alice:alice');
    // The panel's account only: the passwd file is root's, its line carries the hash.
    expect(await owner('/etc/pure-ftpd/pureftpd.passwd')).toBe('root:root');
    const line = (await sb.execOk(['cat', '/etc/pure-ftpd/pureftpd.passwd'])).stdout;
    expect(line).toMatch(
      /^shop\.deploy:\$6\$[^:]+:\d+:\d+:stackdeck-\d+:\/home\/alice\/apps\/shop\/\.\/:/,
    );
    expect(line).not.toContain(PASSWORD);
    // The login may be protected by TLS (explicit, self-signed here), whose key only root reads.
    const tls = await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/', ['--ssl-reqd', '-k', '-l']);
    expect(tls.code, tls.err).toBe(0);
    expect(tls.out.split('\n')).toContain('hello.txt');
    const pem = await sb.execOk(['stat', '-c', '%U %a', '/etc/ssl/private/pure-ftpd.pem']);
    expect(pem.stdout.trim()).toBe('root 600');
  }, 60_000);

  it('cannot leave its folder', async () => {
    const listing = await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/../../', ['-l']);
    expect(listing.code, listing.err).toBe(0);
    const names = listing.out.split('\n').filter(Boolean);
    expect(names).toContain('hello.txt');
    expect(names).toContain('public');
    expect(names).not.toContain('apps');
    expect(names).not.toContain('etc');
    // CWD / lands in the folder too.
    const cwd = await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/', ['-l', '-Q', 'CWD /']);
    expect(cwd.out.split('\n')).toContain('hello.txt');
    // An upload aimed above the folder lands inside it, or nowhere: never in the home.
    await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/../../../escape.txt', [
      '-T',
      '/tmp/hello.txt',
    ]);
    expect(await exists('/home/alice/escape.txt')).toBe(false);
    expect(await exists('/home/alice/apps/escape.txt')).toBe(false);
    expect(await exists('/escape.txt')).toBe(false);
  }, 60_000);

  it('refuses a wrong password, and system users', async () => {
    expect((await ftp('shop.deploy', 'not the password', 'ftp://127.0.0.1/')).code).toBe(67);
    // Only the panel's FTP accounts log in: alice's system password opens no FTP session.
    expect((await ftp('alice', 'a long system password 1', 'ftp://127.0.0.1/')).code).toBe(67);
  }, 60_000);

  it('shuts an account in a subfolder it makes; a new password replaces the old', async () => {
    const sub = await create({ username: 'uploader', directory: 'public/uploads' });
    expect(sub.path).toBe(`${APP}/public/uploads`);
    expect(await owner(`${APP}/public/uploads`)).toBe('alice:alice');
    const up = await ftp('uploader', PASSWORD, 'ftp://127.0.0.1/', ['-T', '/tmp/hello.txt']);
    expect(up.code, up.err).toBe(0);
    expect(await exists(`${APP}/public/uploads/hello.txt`)).toBe(true);
    const listing = await ftp('uploader', PASSWORD, 'ftp://127.0.0.1/../', ['-l']);
    const names = listing.out.split('\n').filter((n) => n && n !== '.' && n !== '..');
    expect(names).toEqual(['hello.txt']);

    const put = await panel.api('PUT', account(sub.id), { password: 'another ftp password' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await ftp('uploader', PASSWORD, 'ftp://127.0.0.1/')).code).toBe(67);
    expect((await ftp('uploader', 'another ftp password', 'ftp://127.0.0.1/')).code).toBe(0);

    // A folder leading out through a link is refused at its field.
    await sb.execOk(['runuser', '-u', 'alice', '--', 'ln', '-s', '/etc', `${APP}/etc-link`]);
    const bad = await panel.api('PUT', account(sub.id), { directory: 'etc-link' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('directory');
    // The account keeps its folder on the server; saving a good one settles the row again.
    expect((await ftp('uploader', 'another ftp password', 'ftp://127.0.0.1/')).code).toBe(0);
    const back = await panel.api('PUT', account(sub.id), { directory: 'public/uploads' });
    expect(back.json()).toMatchObject({ status: 'active', directory: 'public/uploads' });

    // Deleted with its folder: the login is refused, the folder gone, the app's folder kept.
    const del = await panel.api('DELETE', `${account(sub.id)}?delhome=true`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await ftp('uploader', 'another ftp password', 'ftp://127.0.0.1/')).code).toBe(67);
    expect(await exists(`${APP}/public/uploads`)).toBe(false);
    expect(await exists(`${APP}/public`)).toBe(true);
  }, 90_000);

  it("never deletes the app's own folder; after delete the login is refused", async () => {
    const refused = await panel.api('DELETE', `${account(root.id)}?delhome=true`);
    expect(refused.statusCode).toBe(400);
    expect((await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/')).code).toBe(0);
    const del = await panel.api('DELETE', account(root.id));
    expect(del.json()).toEqual({ id: root.id, status: 'deleted' });
    expect((await ftp('shop.deploy', PASSWORD, 'ftp://127.0.0.1/')).code).toBe(67);
    expect(await exists(`${APP}/hello.txt`)).toBe(true);
  }, 60_000);

  it("takes the app's accounts off the server with the app", async () => {
    await create({ username: 'last', directory: 'public' });
    const res = await panel.api('DELETE', path(`webstacks/${shop}`));
    expect(res.statusCode, res.body).toBe(200);
    expect((await ftp('last', PASSWORD, 'ftp://127.0.0.1/')).code).toBe(67);
    expect((await sb.execOk(['cat', '/etc/pure-ftpd/pureftpd.passwd'])).stdout).toBe('');
  }, 90_000);
});
