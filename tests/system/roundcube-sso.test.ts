import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpArgs, OpName, OpResult } from '../../resources/agent/ops';
import type { Sandbox } from '../../scripts/sandbox/index';
import { mintSsoToken, signClaims } from '../../features/roundcube/serverSsoToken';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';
import { pinRelease, serveRoundcube } from './harness/releaseArchives';

/**
 * Single sign-on into Roundcube on a real server: Debian's Roundcube 1.6.5 installed by the
 * panel (with the stackdeck_sso plugin), Postfix and Dovecot with the master user, a mailbox made
 * through the panel. curl inside the sandbox is the browser: it posts the panel's token to
 * Roundcube through nginx and reads the mailbox's message list in the session it gets. A token
 * posted again, an expired one, a changed one and one for a mailbox the server lacks are
 * refused; a password login works as before (and a wrong password still fails: the master login
 * is not global).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
let appId = 0;
let mid = 0;

const HOST = 'mail.test';
const ALICE = `alice@${HOST}`;
const APP_DIR = '/home/mailweb/apps/webmail';
const SETTINGS = `${APP_DIR}/.stackdeck-sso/sso.json`;
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

const call = <N extends OpName>(name: N, args: OpArgs<N>): Promise<OpResult<N>> =>
  panel.t.app.agents.call(server.id, name, args);

interface Answer {
  status: number;
  location: string;
  body: string;
}

let jars = 0;
/** A fresh browser: its own cookie jar. */
const browser = () => `/tmp/jar-${++jars}`;

/** curl through the sandbox's nginx, as a browser with cookie jar `jar`. */
async function http(jar: string, path: string, extra: string[] = []): Promise<Answer> {
  const res = await sb.execOk(
    [
      'curl',
      '-s',
      '-D',
      '-',
      '-c',
      jar,
      '-b',
      jar,
      '--resolve',
      `${HOST}:80:127.0.0.1`,
      ...extra,
      `http://${HOST}${path}`,
    ],
    { timeoutMs: 60_000 },
  );
  const split = res.stdout.indexOf('\r\n\r\n');
  const head = res.stdout.slice(0, split);
  return {
    status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]),
    location: /^location: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
    body: res.stdout.slice(split + 4),
  };
}

/** Posts a token as the launcher's form does (`_sso`, form-encoded, to the app's root). */
const postToken = (jar: string, token: string) =>
  http(jar, '/', ['--data-urlencode', `_sso=${token}`]);

/** The INBOX's message list of the session in `jar`, as Roundcube's own page asks for it. */
async function inboxList(jar: string): Promise<Answer> {
  const page = await http(jar, '/?_task=mail&_mbox=INBOX');
  const token = /"request_token":"([A-Za-z0-9]+)"/.exec(page.body)?.[1];
  expect(token, page.body.slice(0, 400)).toBeTruthy();
  return http(jar, '/?_task=mail&_action=list&_mbox=INBOX&_remote=1&_page=1', [
    '-H',
    `X-Roundcube-Request: ${token!}`,
  ]);
}

/**
 * Writes a message to alice and sends it in the session in `jar`, as Roundcube's compose page
 * does (its id from the redirect, the request token and the identity from the page): the
 * answer of the send.
 */
async function sendFrom(jar: string, subject: string): Promise<Answer> {
  const start = await http(jar, '/?_task=mail&_action=compose');
  const id = /_id=([A-Za-z0-9]+)/.exec(start.location)?.[1];
  expect(id, `${start.status} ${start.location}`).toBeTruthy();
  const page = await http(jar, `/?_task=mail&_action=compose&_id=${id!}`);
  const token = /"request_token":"([A-Za-z0-9]+)"/.exec(page.body)?.[1];
  const from = /name="_from"[\s\S]*?value="(\d+)"/.exec(page.body)?.[1];
  expect(token && from, page.body.slice(0, 400)).toBeTruthy();
  const fields = {
    _token: token!,
    _task: 'mail',
    _action: 'send',
    _id: id!,
    _from: from!,
    _to: ALICE,
    _subject: subject,
    _message: 'Sent from Roundcube.',
    _is_html: '0',
  };
  return http(
    jar,
    '/?_task=mail&_unlock=1',
    Object.entries(fields).flatMap(([k, v]) => ['--data-urlencode', `${k}=${v}`]),
  );
}

/** Waits until alice's INBOX, as the session in `jar` lists it, has `subject`. */
const arrives = (jar: string, subject: string) =>
  sb.waitFor(
    async () => ((await inboxList(jar)).body.includes(subject) ? true : undefined),
    30_000,
    500,
  );

async function settled(taskId: number) {
  for (let i = 0; i < 600; i++) {
    const res = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(res.body) as { data: { status: string; events: unknown[] }[] })
      .data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the install did not end');
}

async function open(): Promise<{ url: string; token: string; address: string }> {
  const res = await panel.api('POST', at(`roundcube-sso/${appId}`), { mailbox_id: mid });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const keyOnServer = async () =>
  (JSON.parse((await sb.execOk(['cat', SETTINGS])).stdout) as { key: string }).key;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'rcsso', [
    'nginx',
    'php8.2-fpm',
    'mariadb',
    'postfix',
    'dovecot',
  ]));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: 'mailweb',
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  await pinRelease(panel, 'roundcube', '1.6.5', await serveRoundcube(sb, 18774));

  // Mail on the server, as the panel's enable leaves it (the preflight needs DNS it lacks here).
  await call('mail.enable', { hostname: `smtp.${HOST}`, smarthost: null });
  await panel.t.app.db
    .insertInto('mail_servers')
    .values({ server_id: server.id, enabled: 1, updated_at: new Date().toISOString() })
    .execute();
}, 600_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('Roundcube single sign-on', () => {
  it('installs Roundcube with the plugin and its settings, for the app’s user alone', async () => {
    const res = await panel.api('POST', at('roundcube'), {
      name: 'webmail',
      domains: [HOST],
      sys_user: 'mailweb',
    });
    expect(res.statusCode, res.body).toBe(202);
    appId = (res.json() as { webapp_id: number }).webapp_id;
    const task = await settled((res.json() as { task_id: number }).task_id);
    expect(task.status, JSON.stringify(task.events)).toBe('completed');

    const modes = await sb.execOk([
      'stat',
      '-c',
      '%n %U %a',
      `${APP_DIR}/.stackdeck-sso`,
      `${APP_DIR}/.stackdeck-sso/nonces`,
      SETTINGS,
      `${APP_DIR}/plugins/stackdeck_sso/stackdeck_sso.php`,
    ]);
    expect(modes.stdout.trim().split('\n')).toEqual([
      `${APP_DIR}/.stackdeck-sso mailweb 700`,
      `${APP_DIR}/.stackdeck-sso/nonces mailweb 700`,
      `${SETTINGS} mailweb 600`,
      `${APP_DIR}/plugins/stackdeck_sso/stackdeck_sso.php mailweb 644`,
    ]);
    const secret = (await sb.execOk(['cat', '/etc/stackdeck/mail/master.secret'])).stdout.trim();
    expect(JSON.parse((await sb.execOk(['cat', SETTINGS])).stdout)).toMatchObject({
      app: appId,
      master_user: 'stackdeck',
      master_pass: secret,
    });
    // Nothing of it is served: the settings live beside public_html, not in it.
    const web = await http(browser(), '/.stackdeck-sso/sso.json');
    expect([403, 404]).toContain(web.status);
    expect(web.body).not.toContain(secret);
    const config = (await sb.execOk(['cat', `${APP_DIR}/config/config.inc.php`])).stdout;
    expect(config).toContain("$config['plugins'] = ['stackdeck_sso'];");
  }, 600_000);

  it('makes a mailbox through the panel and delivers to it', async () => {
    const res = await panel.api('POST', `${at('mail-user')}?wsid=${appId}`, {
      local: 'alice',
      domain: HOST,
      password: 'alice password 1',
    });
    expect([201, 202], res.body).toContain(res.statusCode);
    mid = (res.json() as { id: number }).id;
    await sb.waitFor(async () => {
      const row = await panel.t.app.db
        .selectFrom('mail_users')
        .select('status')
        .where('id', '=', mid)
        .executeTakeFirstOrThrow();
      return row.status === 'active' ? true : undefined;
    }, 60_000);
    const sent = await sb.exec(
      [
        'swaks',
        '--server',
        '127.0.0.1',
        '--local-interface',
        '127.0.0.2',
        '--from',
        'carol@far.test',
        '--to',
        ALICE,
        '--header',
        'Subject: hello through single sign-on',
      ],
      { timeoutMs: 60_000 },
    );
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
  }, 120_000);

  it('signs Roundcube in as the mailbox with the panel’s token: its INBOX answers', async () => {
    const { url, token, address } = await open();
    expect(url).toBe(`http://${HOST}/`);
    expect(address).toBe(ALICE);
    const jar = browser();
    const login = await postToken(jar, token);
    expect(login.status, login.body.slice(0, 400)).toBe(302);
    expect(login.location).toContain('_task=mail');
    // Delivery is asynchronous: the list is asked again until the message is there.
    const list = await sb.waitFor(
      async () => {
        const answer = await inboxList(jar);
        return answer.body.includes('hello through single sign-on') ? answer : undefined;
      },
      30_000,
      500,
    );
    expect(list?.status).toBe(200);
    // The session is the mailbox's: Roundcube's own record of its user, and its log.
    const users = await sb.execOk([
      'mariadb',
      '-N',
      '-e',
      'SELECT username, mail_host FROM rc_webmail.users',
    ]);
    expect(users.stdout.trim()).toBe(`${ALICE}\tlocalhost`);
    const log = await sb.execOk(['cat', `${APP_DIR}/logs/userlogins.log`]).catch(() => null);
    if (log) expect(log.stdout).not.toContain(token);
    // The token was posted, never in an address: no log line of nginx holds it.
    const logs = await sb.exec([
      'grep',
      '-rl',
      '--',
      token.slice(0, 40),
      '/var/log',
      '/home/mailweb',
    ]);
    expect(logs.stdout.trim()).toBe('');
    expect((await panel.api('GET', `accntactivity/users/${panel.uid}`)).body).toContain(
      `Opened the mailbox ${ALICE} in Roundcube (webmail)`,
    );
  }, 120_000);

  it('refuses the same token twice, an expired one, a changed one, one for a mailbox the server lacks', async () => {
    const { token } = await open();
    const first = await postToken(browser(), token);
    expect(first.status).toBe(302);
    // Roundcube answers a failed login with its sign-in page and 401.
    const again = await postToken(browser(), token);
    expect(again.status).toBe(401);
    expect(again.body).toContain('This sign-in link was used already');

    const key = await keyOnServer();
    const expired = mintSsoToken(key, appId, ALICE, Date.now() - 120_000).token;
    let res = await postToken(browser(), expired);
    expect(res.body).toContain('This sign-in link has expired');

    const [body, mac] = (await open()).token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as object;
    const changed = Buffer.from(JSON.stringify({ ...claims, email: `bob@${HOST}` })).toString(
      'base64url',
    );
    res = await postToken(browser(), `${changed}.${mac}`);
    expect(res.body).toContain('This sign-in link is not valid');
    // Signed with another app's key: not valid either.
    res = await postToken(browser(), mintSsoToken('k'.repeat(43), appId, ALICE, Date.now()).token);
    expect(res.body).toContain('This sign-in link is not valid');

    // A good signature for a mailbox Dovecot does not have: the master user may not invent one.
    const ghost = signClaims(key, {
      v: 1,
      app: appId,
      email: `ghost@${HOST}`,
      exp: Math.floor(Date.now() / 1000) + 30,
      nonce: 'g'.repeat(32),
    });
    const jar = browser();
    res = await postToken(jar, ghost);
    expect(res.status).toBe(401);
    expect(res.body).toContain('Login failed');
    const after = await http(jar, '/?_task=mail');
    expect(after.body).toContain('name="_user"');
  }, 120_000);

  it('leaves the password login as it was: the right password signs in, a wrong one does not', async () => {
    const login = async (password: string) => {
      const jar = browser();
      const form = await http(jar, '/');
      const token = /name="_token" value="([A-Za-z0-9]+)"/.exec(form.body)?.[1];
      expect(token).toBeTruthy();
      const res = await http(jar, '/?_task=login', [
        '--data-urlencode',
        `_token=${token!}`,
        '--data-urlencode',
        '_task=login',
        '--data-urlencode',
        '_action=login',
        '--data-urlencode',
        `_user=${ALICE}`,
        '--data-urlencode',
        `_pass=${password}`,
      ]);
      return { jar, res };
    };
    const good = await login('alice password 1');
    expect(good.res.status, good.res.body.slice(0, 400)).toBe(302);
    expect((await inboxList(good.jar)).body).toContain('hello through single sign-on');
    const bad = await login('not the password');
    expect(bad.res.status).toBe(401);
    expect(bad.res.body).toContain('Login failed');
    // Sending, with the installer's SMTP (tls://localhost:587: Postfix wants TLS before a login).
    const sent = await sendFrom(good.jar, 'sent with a password login');
    expect(sent.body, sent.body.slice(0, 600)).toContain('sent_successfully');
    await arrives(good.jar, 'sent with a password login');
  }, 120_000);

  it('sends from a session the panel signed in, as the mailbox', async () => {
    const jar = browser();
    expect((await postToken(jar, (await open()).token)).status).toBe(302);
    const sent = await sendFrom(jar, 'sent after single sign-on');
    expect(sent.body, sent.body.slice(0, 600)).toContain('sent_successfully');
    await arrives(jar, 'sent after single sign-on');
  }, 120_000);

  it('sets an older install up on the first open, and again only what changed', async () => {
    // As an install before single sign-on: no plugin, no settings, the plugin not enabled.
    const config = `${APP_DIR}/config/config.inc.php`;
    await sb.execOk(['rm', '-rf', `${APP_DIR}/plugins/stackdeck_sso`, `${APP_DIR}/.stackdeck-sso`]);
    await sb.execOk(['sed', '-i', "s/\\['stackdeck_sso'\\]/[]/", config]);
    const { token } = await open();
    expect((await sb.execOk(['cat', config])).stdout).toContain(
      "array_merge((array) ($config['plugins'] ?? []), ['stackdeck_sso']);",
    );
    expect((await postToken(browser(), token)).status).toBe(302);
    const user = 'mailweb';
    const again = await call('roundcube.sso.set', {
      user,
      app: 'webmail',
      app_id: appId,
      key: await keyOnServer(),
    });
    expect(again).toEqual({ changed: false, mail: true });
  }, 120_000);
});
