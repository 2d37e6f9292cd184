import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceInValue, urlPairs } from '../../features/clone/serialized';
import type { Sandbox } from '../../scripts/sandbox/index';
import { CHECK, GENERATE, ROUNDTRIP, SOURCE_SQL } from './clone-php';
import { type Panel, type ServerRecord, installedSandbox, startPanel } from './harness/panel';

/**
 * The agent side of cloning (issue 11) on a real server: clone.files between two system users
 * (checked with stat, cmp, ls), clone.database from a WordPress-like database that PHP itself
 * filled (checked with PHP's unserialize() and the mariadb client), and a PHP round-trip
 * property test of the serialization-aware replace.
 */
let panel: Panel;
let sb: Sandbox;
let server: ServerRecord;
const pairs = urlPairs('a.test', 'new-site.example');
/** `a.test` as a name of its own (not inside a.test.org, aa.test or sub.a.test). */
const OLD = /(?<![a-z0-9-]|[a-z0-9]\.)a\.test(?![a-z0-9-]|\.[a-z0-9])/;

const root = async (query: string, db?: string) =>
  (
    await sb.execOk(['mariadb', '--batch', '--raw', '--skip-column-names', ...(db ? [db] : [])], {
      input: query,
    })
  ).stdout.trim();
const php = async (program: string, input: string, args: string[] = []) => {
  await sb.execOk(['bash', '-c', 'cat > /root/prog.php'], { input: program });
  return (await sb.execOk(['php', '/root/prog.php', ...args], { input, timeoutMs: 300_000 }))
    .stdout;
};
const codesOf = (events: { code: number }[]) => events.map((e) => e.code);

beforeAll(async () => {
  panel = await startPanel();
  ({ sb, server } = await installedSandbox(panel, 'clone', ['mariadb']));
  for (const user_name of ['alice', 'bob']) {
    const res = await panel.api('POST', `sysusers/servers/${server.id}/users/${panel.uid}`, {
      user_name,
      password: 'a long system password 1',
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  await sb.execOk(
    [
      'bash',
      '-ec',
      `mkdir -p /home/alice/apps/site/public/wp-content/uploads/2024 /home/alice/apps/site/public/wp-content/cache /home/alice/apps/site/private
       cd /home/alice/apps/site/public
       echo '<?php echo "hi";' > index.php
       echo "<?php define('DB_NAME', 'src_db');" > wp-config.php && chmod 600 wp-config.php
       echo 'grüße' > grüße.txt
       head -c 30000000 /dev/urandom > big.bin
       echo jpg > wp-content/uploads/2024/a.jpg
       echo cached > wp-content/cache/page.html
       ln -s index.php home.php
       ln -s /etc/passwd passwd-link
       ln -s ../../../../../etc/passwd escape
       mkfifo pipe
       echo secret > secret.txt && chmod 000 secret.txt
       echo hidden > ../private/x && chmod 000 ../private
       ln -s /etc /home/alice/apps/linked`,
    ],
    { user: 'alice' },
  );
  await sb.execOk(['mkdir', '-p', '/home/bob/apps/copy/public'], { user: 'bob' });
  await sb.execOk(['bash', '-c', 'php > /root/src.sql'], { input: SOURCE_SQL });
  await root('CREATE DATABASE src_db; CREATE DATABASE dst_db;');
  await sb.execOk(['bash', '-c', 'mariadb src_db < /root/src.sql']);
}, 300_000);

afterAll(async () => {
  await sb?.stop();
  await panel?.close();
});

const files = (from_dir: string, to_dir: string, from_user = 'alice') =>
  panel.t.app.agents.call(server.id, 'clone.files', {
    from_user,
    from_dir,
    to_user: 'bob',
    to_dir,
    exclude: ['wp-content/cache'],
  });

describe('clone.files', () => {
  it("copies what the source user can read into the target's folder, owned by the target", async () => {
    const events: { event: string; code: number }[] = [];
    const done = await panel.t.app.agents.call(
      server.id,
      'clone.files',
      {
        from_user: 'alice',
        from_dir: '/home/alice/apps/site',
        to_user: 'bob',
        to_dir: '/home/bob/apps/copy',
        exclude: ['wp-content/cache'],
      },
      { onProgress: (p) => events.push(p) },
    );
    // index, wp-config, grüße, big.bin, a.jpg; left out: two links leaving the app, the fifo,
    // the unreadable file and folder.
    expect(done).toEqual({ files: 5, bytes: expect.any(Number) as number, left_out: 5 });
    expect(done.bytes).toBeGreaterThan(30_000_000);
    const owners = await sb.execOk(['find', '/home/bob/apps/copy', '-printf', '%u:%g %P\\n']);
    for (const line of owners.stdout.trim().split('\n'))
      expect(line, line).toMatch(/^bob:bob( |$)/);
    const listing = (
      await sb.execOk(['find', '/home/bob/apps/copy', '-mindepth', '1', '-printf', '%y %P\\n'])
    ).stdout
      .trim()
      .split('\n')
      .sort();
    expect(listing).toEqual(
      [
        'd public',
        'd public/wp-content',
        'd public/wp-content/uploads',
        'd public/wp-content/uploads/2024',
        'f public/big.bin',
        'f public/grüße.txt',
        'f public/index.php',
        'f public/wp-config.php',
        'f public/wp-content/uploads/2024/a.jpg',
        'l public/home.php',
      ].sort(),
    );
    await sb.execOk([
      'cmp',
      '/home/alice/apps/site/public/big.bin',
      '/home/bob/apps/copy/public/big.bin',
    ]);
    const mode = await sb.execOk(['stat', '-c', '%a', '/home/bob/apps/copy/public/wp-config.php']);
    expect(mode.stdout.trim()).toBe('600');
    const link = await sb.execOk(['readlink', '/home/bob/apps/copy/public/home.php']);
    expect(link.stdout.trim()).toBe('index.php');
    const codes = codesOf(events);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(codes[0]).toBe(0);
    expect(codes.at(-1)).toBe(10);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)?.event).toBe('Files copied');
  }, 300_000);

  it('refuses a folder that is not empty, one reached through a link, and another user’s', async () => {
    await expect(files('/home/alice/apps/site', '/home/bob/apps/copy')).rejects.toThrow(
      /must be empty/,
    );
    await sb.execOk(['mkdir', '/home/bob/apps/two'], { user: 'bob' });
    await expect(files('/home/alice/apps/linked', '/home/bob/apps/two')).rejects.toThrow(
      /without links/,
    );
    await expect(files('/home/bob/apps/copy', '/home/bob/apps/two')).rejects.toThrow(
      /An app folder of alice/,
    );
    expect((await sb.execOk(['ls', '-A', '/home/bob/apps/two'])).stdout).toBe('');
  }, 120_000);
});

describe('clone.database', () => {
  const skipped = async (table: string, where = '1') =>
    (await root(`SELECT HEX(option_value) FROM ${table} WHERE ${where};`, 'dst_db')).trim();

  it('copies the database and rewrites every address, serialized values intact', async () => {
    const events: { event: string; code: number }[] = [];
    const done = await panel.t.app.agents.call(
      server.id,
      'clone.database',
      { from: 'src_db', to: 'dst_db', pairs, skip_columns: ['*_posts.guid'] },
      { onProgress: (p) => events.push(p) },
    );
    expect(done).toEqual({
      tables: 6,
      rows_changed: 6 + 2 + 2500 + 3 + 6 + 2100 + 1,
      values_skipped: 1,
      refused: [],
    });
    const codes = codesOf(events);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(codes.at(-1)).toBe(10);

    // Every option unserializes in PHP and shows the new domain.
    const rows = await root('SELECT option_name, HEX(option_value) FROM wp_options;', 'dst_db');
    const seen = JSON.parse(await php(CHECK, rows)) as Record<
      string,
      { ok: boolean; value: unknown }
    >;
    for (const [name, { ok }] of Object.entries(seen)) expect(ok, name).toBe(true);
    const v = (name: string) => seen[name]!.value as Record<string, never>;
    expect(v('siteurl')).toBe('https://new-site.example');
    expect(v('widget_text')).toMatchObject({
      2: { title: 'Grüße 日本 ', text: '<a href="https://new-site.example/über">x</a>' },
    });
    expect(v('theme_mods_twenty')).toMatchObject({
      header_image: 'http://new-site.example/wp-content/uploads/h.jpg',
      nested: { deep: { url: '//new-site.example/x', n: 1.5, b: true, z: null, 7: -3 } },
    });
    expect(v('double')).toEqual({
      url: 'https://new-site.example/ü',
      obj: { link: 'https://new-site.example/o', n: 'ñ' },
    });
    expect(JSON.parse(seen.json_opt!.value as string)).toEqual({
      url: 'https://new-site.example/wp-json/',
      img: '//new-site.example/i.png',
      enc: 'https%3A%2F%2Fnew-site.example%2F',
    });
    expect(v('other_domains')).toEqual({
      keep: 'https://a.test.org/x',
      also: 'https://aa.test/',
      sub: 'https://sub.a.test/',
    });
    // The C: payload is left as the source had it (the one skipped value).
    expect(await skipped('wp_options', "option_name = 'c_payload'")).toBe(
      await root(
        "SELECT HEX(option_value) FROM wp_options WHERE option_name = 'c_payload';",
        'src_db',
      ),
    );

    // The other tables' serialized values too.
    const more = await root(
      "SELECT CONCAT('nokey', n), HEX(msg) FROM log_nokey UNION ALL SELECT CONCAT(k1, '-', k2), HEX(v) FROM kv;",
      'dst_db',
    );
    for (const [name, r] of Object.entries(
      JSON.parse(await php(CHECK, more)) as Record<string, { ok: boolean; value: unknown }>,
    )) {
      expect(r.ok, name).toBe(true);
      expect(JSON.stringify(r.value), name).toContain('new-site.example');
    }
    expect(await root('SELECT v FROM legacy;', 'dst_db')).toBe('café https://new-site.example/');
  }, 300_000);

  it('leaves no old address but the guids, the skipped value and the source', async () => {
    const all = await root(
      `SELECT HEX(option_value) FROM wp_options WHERE option_name NOT IN ('c_payload', 'other_domains')
       UNION ALL SELECT HEX(post_content) FROM wp_posts UNION ALL SELECT HEX(meta_value) FROM wp_postmeta
       UNION ALL SELECT HEX(msg) FROM log_nokey UNION ALL SELECT HEX(v) FROM kv UNION ALL SELECT HEX(v) FROM legacy;`,
      'dst_db',
    );
    const texts = all.split('\n').map((h) => Buffer.from(h, 'hex').toString('latin1'));
    expect(texts.length).toBe(9 + 2 + 2501 + 3 + 6 + 2100 + 1 - 2);
    expect(texts.filter((t) => OLD.test(t))).toEqual([]);
    expect(await root('SELECT guid FROM wp_posts ORDER BY ID;', 'dst_db')).toBe(
      'https://a.test/?p=1\nhttps://a.test/?p=2',
    );
    expect(
      await root("SELECT option_value FROM wp_options WHERE option_name = 'home';", 'src_db'),
    ).toBe('https://a.test');
    expect(
      await root(
        "SELECT (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'dst_db'), (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'dst_db');",
      ),
    ).toBe('1\t1');
  });

  it('refuses a target that is not empty and MariaDB’s own databases', async () => {
    const call = (from: string, to: string) =>
      panel.t.app.agents.call(server.id, 'clone.database', { from, to, pairs });
    await expect(call('src_db', 'dst_db')).rejects.toThrow(/must be empty/);
    await expect(call('mysql', 'dst_db')).rejects.toThrow(/MariaDB's own/);
    await expect(call('nope_db', 'dst_db')).rejects.toThrow(/No database nope_db/);
  });
});

describe('serialization-aware replace against PHP', () => {
  it('round-trips random nested PHP values: unserialize() works and matches PHP’s own replace', async () => {
    for (const seed of [1, 2, 3]) {
      const generated = (await php(GENERATE, '', ['1500', String(seed)])).trim().split('\n');
      const lines = generated.map((line) => {
        const [src, want] = line.split('\t') as [string, string];
        return `${replaceInValue(Buffer.from(src, 'hex'), pairs).value.toString('hex')}\t${want}`;
      });
      expect(JSON.parse(await php(ROUNDTRIP, lines.join('\n')))).toEqual([]);
      // Some values really changed (the generator puts addresses in many of them).
      const changed = generated.filter((l, i) => l.split('\t')[0] !== lines[i]!.split('\t')[0]);
      expect(changed.length).toBeGreaterThan(100);
    }
  }, 300_000);
});
