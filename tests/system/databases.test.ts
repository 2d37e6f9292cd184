import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../scripts/sandbox/index';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * MariaDB databases and users on a real server: the panel's API drives the real agent in a
 * sandbox with its own MariaDB, and the `mariadb` client checks the outcome as root and as the
 * user the panel made (its password, what it sees, what it loses).
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;

const path = (p: string) => `${p}/servers/${server.id}/users/${panel.uid}`;
const PASSWORD = 'a long database password 7';

/** A query as root (unix socket), rows tab-separated. */
const asRoot = async (query: string) =>
  (
    await sb.execOk(['mariadb', '--batch', '--raw', '--skip-column-names'], { input: query })
  ).stdout.trim();
/** A query as the panel's user, with its password (a test's own, on its command line). */
const asUser = (user: string, password: string, query: string) =>
  sb.exec(['mariadb', '--batch', '--skip-column-names', '-u', user, `-p${password}`], {
    input: query,
  });

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'databases', ['mariadb']));
});

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

describe('MariaDB databases and users on a sandbox server', () => {
  let dbId: number;
  let userId: number;

  it("lists the server's own collations", async () => {
    const res = await panel.api('GET', `databases/collations?server=${server.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const names = (res.json().data as { collation: string }[]).map((c) => c.collation);
    expect(names).toContain('utf8mb4_unicode_ci');
    expect(names).toContain('latin1_swedish_ci');
    expect(names.length).toBe(
      Number(await asRoot('SELECT COUNT(*) FROM information_schema.COLLATIONS;')),
    );
  });

  it('creates a database and a user that logs in and sees only its database', async () => {
    const made = await panel.api('POST', path('databases'), {
      name: 'my_db',
      collation: 'utf8mb4_unicode_ci',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ name: 'my_db', status: 'active', users: [] });
    dbId = made.json().id;
    // A look-alike someone made by hand: an unescaped `my_db` grant would open it too.
    await asRoot('CREATE DATABASE myXdb;');

    const user = await panel.api('POST', path('dbusers'), {
      name: 'app_user',
      password: PASSWORD,
      databases: [dbId],
    });
    expect(user.statusCode, user.body).toBe(201);
    expect(user.json()).toMatchObject({ name: 'app_user', status: 'active', databases: [dbId] });
    expect(user.body).not.toMatch(/password|\*[0-9A-F]{40}/);
    userId = user.json().id;

    const seen = await asUser('app_user', PASSWORD, 'SHOW DATABASES;');
    expect(seen.code, seen.stderr).toBe(0);
    expect(seen.stdout.trim().split('\n').sort()).toEqual(['information_schema', 'my_db']);
    const lookalike = await asUser('app_user', PASSWORD, 'USE myXdb;');
    expect(lookalike.code).not.toBe(0);
    expect(lookalike.stderr).toMatch(/Access denied/);
    expect(await asRoot("SELECT Db FROM mysql.db WHERE User = 'app_user';")).toBe('my\\_db');
    const wrong = await asUser('app_user', 'not the password', 'SELECT 1;');
    expect(wrong.code).not.toBe(0);

    const listed = await panel.api('GET', path('databases'));
    expect(listed.json().data[0]).toMatchObject({
      name: 'my_db',
      users: [{ id: userId, name: 'app_user' }],
    });
  });

  it('changes the collation, and renames the database with its tables and grants', async () => {
    await asUser(
      'app_user',
      PASSWORD,
      'CREATE TABLE my_db.items (id INT); INSERT INTO my_db.items VALUES (7);',
    );
    const changed = await panel.api('PUT', path(`databases/${dbId}`), {
      name: 'my_db',
      collation: 'utf8mb4_general_ci',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(
      await asRoot(
        "SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'my_db';",
      ),
    ).toBe('utf8mb4_general_ci');

    const renamed = await panel.api('PUT', path(`databases/${dbId}`), {
      name: 'shop',
      collation: 'utf8mb4_general_ci',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'shop', status: 'active' });
    expect(
      await asRoot("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'my_db';"),
    ).toBe('0');
    const rows = await asUser('app_user', PASSWORD, 'SELECT id FROM shop.items;');
    expect(rows.stdout.trim()).toBe('7');
  });

  it('removes a user from a database with ?userdel=: it loses access', async () => {
    const res = await panel.api('PATCH', `${path(`databases/${dbId}`)}?userdel=${userId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().users).toEqual([]);
    const seen = await asUser('app_user', PASSWORD, 'SHOW DATABASES;');
    expect(seen.stdout.trim()).toBe('information_schema');
    expect((await asUser('app_user', PASSWORD, 'SELECT id FROM shop.items;')).code).not.toBe(0);
  });

  it('reads back drift, deletes the user and the database, and leaves no grant behind', async () => {
    const again = await panel.api('PUT', path(`dbusers/${userId}`), {
      name: 'app_user',
      databases: [dbId],
    });
    expect(again.statusCode, again.body).toBe(200);
    await asRoot("REVOKE ALL PRIVILEGES ON `shop`.* FROM 'app_user'@'localhost';");
    const synced = await panel.api('GET', `${path('dbusers')}?sync=true`);
    expect(synced.json().data[0]).toMatchObject({ name: 'app_user', drift: 'changed' });

    const delUser = await panel.api('DELETE', path(`dbusers/${userId}`));
    expect(delUser.json()).toEqual({ id: userId, status: 'deleted' });
    expect((await asUser('app_user', PASSWORD, 'SELECT 1;')).code).not.toBe(0);

    const other = await panel.api('POST', path('dbusers'), {
      name: 'other_user',
      password: PASSWORD,
      databases: [dbId],
    });
    expect(other.statusCode, other.body).toBe(201);
    const delDb = await panel.api('DELETE', path(`databases/${dbId}`));
    expect(delDb.json()).toEqual({ id: dbId, status: 'deleted' });
    expect(
      await asRoot("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop';"),
    ).toBe('0');
    // A database made again under the name does not inherit the old grants.
    expect(await asRoot("SELECT COUNT(*) FROM mysql.db WHERE Db IN ('shop', 'shop');")).toBe('0');
    const log = (await sb.exec(['cat', '/var/log/stackdeck-agent.log'])).stdout;
    expect(log).not.toContain(PASSWORD);
  });
});
