import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The Debian source on a real server, without internet: a fresh panel's default for WordPress,
 * phpMyAdmin and Roundcube is Debian's package, with no admin action. The agent copies the
 * package into the app as the app's user (links followed, no link back into /etc or /var/lib),
 * the app's own set-up runs on the copy, and nginx serves it. One sandbox and one panel for the
 * three apps: a boot is the expensive part.
 *
 * WordPress's package is on the server already; phpMyAdmin's and Roundcube's are not (purged
 * first), so the agent installs them with apt-get, which checks them against the signed package
 * lists. A sandbox has no network: apt takes them from the apt cache it shares with this host,
 * as a server without internet takes them from its cache or a local mirror (`sandbox-server
 * deps` keeps them there). The packages must leave Apache alone: no global /phpmyadmin alias
 * on the sites of a neighbouring app on NGINX plus Apache2.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const USER = 'debuser';
const at = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'debsrc', ['nginx', 'php8.2-fpm', 'mariadb']));
  const user = await panel.api('POST', at('sysusers'), {
    user_name: USER,
    password: 'a long system password 1',
  });
  expect(user.statusCode, user.body).toBe(201);
  const fresh = ['phpmyadmin', 'roundcube-core', 'roundcube-mysql'];
  // Offline, apt must find them in its cache (what `sandbox-server deps` keeps there).
  const fetches = await sb.execOk([
    'apt-get',
    'install',
    '--reinstall',
    '--download-only',
    '--print-uris',
    '-qq',
    ...fresh,
  ]);
  expect(fetches.stdout, 'not in the apt cache: run scripts/sandbox-server deps').toBe('');
  await sb.execOk(['dpkg', '--purge', ...fresh]);
  // What a server can hold after an earlier preseed and a purge: the preseed's dummy template
  // without its question, which debconf-set-selections refuses (the agent mends it).
  await sb.execOk(['tee', '-a', '/var/cache/debconf/templates.dat'], {
    input:
      'Name: phpmyadmin/dbconfig-install\nDescription: Dummy template\nType: boolean\n' +
      'Owners: phpmyadmin/dbconfig-install\n\n',
  });
  // A neighbouring app on Apache (behind nginx), running before the packages are installed.
  const neighbour = await panel.api('POST', at('webstacks'), {
    name: 'neighbour',
    domains: ['neighbour.test'],
    sys_user: USER,
    stack_type: 'apache/nginx',
  });
  expect(neighbour.statusCode, neighbour.body).toBe(201);
  expect(neighbour.json(), neighbour.body).toMatchObject({ status: 'active' });
  const page = `/home/${USER}/apps/neighbour/public/hi.php`;
  await sb.execOk(['runuser', '-u', USER, '--', 'tee', page], { input: '<?php echo "hi";' });
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

interface Task {
  status: string;
  events: { event: string; code: number }[];
}

/** Starts an install and waits for its task to end; the task, completed or not. */
async function install(path: string, body: Record<string, unknown>): Promise<Task> {
  const res = await panel.api('POST', at(path), { sys_user: USER, ...body });
  expect(res.statusCode, res.body).toBe(202);
  const taskId = (JSON.parse(res.body) as { task_id: number }).task_id;
  for (let i = 0; i < 1200; i++) {
    const got = await panel.api('GET', `clone-events/users/${panel.uid}?id=${taskId}`);
    const task = (JSON.parse(got.body) as { data: Task[] }).data[0]!;
    if (task.status !== 'running') return task;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the install of ${path} did not end`);
}

/** The install came from Debian's package, not from a download. */
function fromDebian(task: Task, label: string) {
  expect(task.status, JSON.stringify(task.events)).toBe('completed');
  const events = task.events.map((e) => e.event);
  expect(events).toContain(`Copying ${label} from Debian’s package`);
  expect(events.join('\n')).not.toMatch(/Downloading/);
}

/** `curl` through the sandbox's nginx, by the site's name, with a cookie jar of its own. */
async function browse(domain: string, url: string, more: string[] = []) {
  const res = await sb.execOk([
    'curl',
    '-s',
    '-L',
    '--resolve',
    `${domain}:80:127.0.0.1`,
    '-b',
    `/tmp/${domain}.jar`,
    '-c',
    `/tmp/${domain}.jar`,
    '-w',
    '\n%{http_code}',
    ...more,
    `http://${domain}${url}`,
  ]);
  const lines = res.stdout.split('\n');
  return { status: Number(lines.pop()), body: lines.join('\n') };
}

/** Installed by the agent (it was purged before), and Apache left as it was. */
async function installedQuietly(pkg: string, conf: string) {
  const status = await sb.execOk(['dpkg-query', '-W', '-f=${db:Status-Status}', pkg]);
  expect(status.stdout).toBe('installed');
  const confs = await sb.execOk(['ls', '/etc/apache2/conf-available', '/etc/apache2/conf-enabled']);
  expect(confs.stdout).not.toContain(conf);
  // The neighbour is still served, by Apache on loopback behind nginx.
  expect((await browse('neighbour.test', '/hi.php')).body).toBe('hi');
  expect((await sb.execOk(['ss', '-ltnH', 'sport = :8080'])).stdout).toMatch(/127\.0\.0\.1:8080/);
}

/** The app's files: no link at all (so none into /etc or /var/lib), every one the user's. */
async function selfContained(dir: string) {
  const links = await sb.execOk(['find', dir, '-type', 'l']);
  expect(links.stdout.trim()).toBe('');
  const others = await sb.execOk(['find', dir, '!', '-user', USER]);
  expect(others.stdout.trim()).toBe('');
}

describe('Debian’s packages as the apps’ default source', () => {
  it('WordPress: the site answers, the files are the app’s', async () => {
    fromDebian(
      await install('wordpress', {
        name: 'debblog',
        domains: ['debblog.test'],
        title: 'Debian Source Blog',
        admin_user: 'editor1',
        admin_email: 'editor@example.com',
      }),
      'WordPress',
    );

    const home = await browse('debblog.test', '/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Debian Source Blog');
    expect(home.body).toContain('content="WordPress 6.1.9"');

    const root = `/home/${USER}/apps/debblog/public`;
    await selfContained(root);
    expect((await sb.execOk(['stat', '-c', '%U %a', `${root}/wp-config.php`])).stdout.trim()).toBe(
      'debuser 640',
    );
  }, 300_000);

  it('phpMyAdmin: its sign-in page answers and a database user signs in', async () => {
    fromDebian(
      await install('phpmyadmin', { name: 'debpma', domains: ['debpma.test'] }),
      'phpMyAdmin',
    );

    const page = await browse('debpma.test', '/index.php');
    expect(page.status, page.body.slice(-2000)).toBe(200);
    expect(page.body).toContain('name="pma_username"');
    expect(page.body).toContain('name="pma_password"');
    // A theme file Debian links to its jQuery UI package: copied, and served.
    const css = await browse('debpma.test', '/themes/pmahomme/jquery/jquery-ui.css');
    expect(css.status).toBe(200);
    expect(css.body).toContain('.ui-');
    // Debian's system-wide phpMyAdmin is on no other site.
    for (const url of ['/phpmyadmin/', '/phpmyadmin/index.php', '/phpmyadmin/robots.txt']) {
      const other = await browse('neighbour.test', url);
      expect(other.status, `${url}: ${other.body.slice(0, 500)}`).toBe(404);
      expect(other.body).not.toMatch(/pma_username|phpMyAdmin|Disallow/);
    }
    await installedQuietly('phpmyadmin', 'phpmyadmin');

    // The real thing: a database user signs in with its own password and sees its database.
    const db = await panel.api('POST', at('databases'), { name: 'debshop' });
    expect(db.statusCode, db.body).toBe(201);
    const shop = (
      (await panel.api('GET', at('databases'))).json() as { data: { id: number; name: string }[] }
    ).data.find((d) => d.name === 'debshop')!;
    const dbUser = await panel.api('POST', at('dbusers'), {
      name: 'debshop_app',
      password: 'a long database password 1',
      databases: [shop.id],
    });
    expect(dbUser.statusCode, dbUser.body).toBe(201);
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
    expect(token).toBeTruthy();
    const signedIn = await browse('debpma.test', '/index.php?route=/', [
      '--data-urlencode',
      'pma_username=debshop_app',
      '--data-urlencode',
      'pma_password=a long database password 1',
      '--data-urlencode',
      'server=1',
      '--data-urlencode',
      `token=${token!}`,
    ]);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain('debshop_app@localhost');
    const list = await browse('debpma.test', '/index.php?route=/server/databases');
    expect(list.body).toContain('data-filter-row="DEBSHOP"');

    const dir = `/home/${USER}/apps/debpma`;
    await selfContained(`${dir}/public`);
    await selfContained(`${dir}/.stackdeck-pma`);
    const vendor = await sb.execOk(['cat', `${dir}/public/libraries/vendor_config.php`]);
    expect(vendor.stdout).toContain(`'configFile' => '${dir}/.stackdeck-pma/config.inc.php',`);
    expect(vendor.stdout).not.toMatch(/\/etc\/phpmyadmin|\/var\/lib\/phpmyadmin/);
  }, 300_000);

  it('Roundcube: its sign-in page answers, its schema is loaded', async () => {
    fromDebian(
      await install('roundcube', {
        name: 'debmail',
        domains: ['debmail.test'],
        product_name: 'Debian Source Mail',
      }),
      'Roundcube',
    );

    const page = await browse('debmail.test', '/');
    expect(page.status, page.body.slice(-2000)).toBe(200);
    expect(page.body).toContain('Debian Source Mail');
    expect(page.body).toContain('id="rcmloginuser"');
    expect(page.body).toMatch(/name="_token" value="[A-Za-z0-9]+"/);
    // The skin Debian links from /usr/share/roundcube: copied, and served.
    const style = /href="(skins\/elastic\/[^"?]+\.css)/.exec(page.body)?.[1];
    expect(style, page.body).toBeTruthy();
    expect((await browse('debmail.test', `/${style!}`)).status).toBe(200);
    await installedQuietly('roundcube-core', 'roundcube');

    const tables = await sb.execOk(['mariadb', '-N', '-e', 'SHOW TABLES FROM rc_debmail']);
    expect(tables.stdout).toContain('users');
    expect(tables.stdout).toContain('session');

    const dir = `/home/${USER}/apps/debmail`;
    for (const part of ['index.php', 'program', 'public_html', 'plugins', 'skins', 'SQL', 'config'])
      await selfContained(`${dir}/${part}`);
    const conf = await sb.execOk(['stat', '-c', '%U %a', `${dir}/config/config.inc.php`]);
    expect(conf.stdout.trim()).toBe('debuser 640');
    // Roundcube's defaults are the package's, as upstream lays them out.
    await sb.execOk(['test', '-f', `${dir}/config/defaults.inc.php`]);
  }, 300_000);
});
