import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLUGIN_PHP,
  TOKEN_PHP,
  TOKEN_TTL,
  enablePlugin,
  renderSettings,
} from '../../features/roundcube/ssoPlugin';
import { mintSsoToken, newSsoKey, signClaims } from '../../features/roundcube/serverSsoToken';
import { roundcubeConfig } from '../../features/roundcube/config';

/**
 * Roundcube's single sign-on tokens: minted by the panel (TypeScript), checked by the plugin's
 * own PHP (php-cli runs TOKEN_PHP as the plugin ships it): a good token, an expired one, one
 * living too long, a changed byte, another key or app, and a nonce used twice.
 */
let dir: string;
const key = newSsoKey();
const now = 1_900_000_000_000;
const sec = now / 1000;

/** Runs `code` with the plugin's token.php loaded; echoes its JSON. */
function php(code: string, ...args: string[]): unknown {
  const out = execFileSync(
    'php',
    [
      '-d',
      'display_errors=stderr',
      '-r',
      `require $argv[1]; ${code}`,
      '--',
      path.join(dir, 'token.php'),
      ...args,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out);
}

const verify = (token: string, app = 7, at = sec, withKey = key) =>
  php(
    'echo json_encode(stackdeck_sso_verify($argv[2], $argv[3], (int) $argv[4], (int) $argv[5]));',
    token,
    withKey,
    String(app),
    String(at),
  );

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcsso-'));
  fs.writeFileSync(path.join(dir, 'token.php'), TOKEN_PHP);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Roundcube sign-on tokens', () => {
  it('a minted token checks out in the plugin: its mailbox, app, expiry and nonce', () => {
    const { token, expires_at } = mintSsoToken(key, 7, 'alice@mail.test', now);
    expect(expires_at).toBe(new Date((sec + TOKEN_TTL) * 1000).toISOString());
    const claims = verify(token) as Record<string, unknown>;
    expect(claims).toMatchObject({ v: 1, app: 7, email: 'alice@mail.test', exp: sec + TOKEN_TTL });
    expect(claims.nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Good until its last second, no longer.
    expect(verify(token, 7, sec + TOKEN_TTL)).toMatchObject({ email: 'alice@mail.test' });
    expect(verify(token, 7, sec + TOKEN_TTL + 1)).toMatch(/has expired/);
  });

  it('refuses a changed byte, another key, another app and no token at all, in the same words', () => {
    const { token } = mintSsoToken(key, 7, 'alice@mail.test', now);
    const [body, mac] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...claims, email: 'boss@mail.test' })).toString(
      'base64url',
    );
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    const refusals = [
      verify(`${forged}.${mac}`),
      verify(`${body}.${flipped}`),
      verify(token, 7, sec, newSsoKey()),
      verify(token, 8),
      verify(''),
      verify(`${body}.${mac}.x`),
    ];
    for (const said of refusals) expect(said).toMatch(/^This sign-in link is not valid/);
  });

  it('refuses a token signed to live longer than the panel mints them, and bad claims', () => {
    const base = { v: 1 as const, app: 7, email: 'alice@mail.test', nonce: 'n'.repeat(32) };
    expect(verify(signClaims(key, { ...base, exp: sec + TOKEN_TTL + 30 }))).toMatchObject({
      email: 'alice@mail.test',
    });
    expect(verify(signClaims(key, { ...base, exp: sec + 3600 }))).toMatch(/not valid/);
    expect(verify(signClaims(key, { ...base, exp: sec + 10, nonce: '../../etc' }))).toMatch(
      /not valid/,
    );
    expect(verify(signClaims(key, { ...base, exp: sec + 10, email: 'a b@x' }))).toMatch(
      /not valid/,
    );
  });

  it('uses a nonce up once, and forgets nonces whose tokens have long expired', () => {
    const nonces = path.join(dir, 'nonces');
    // The files' own times are the clock here.
    const present = Math.floor(Date.now() / 1000);
    const use = (nonce: string, at = present) =>
      php(
        'echo json_encode(stackdeck_sso_consume($argv[2], $argv[3], (int) $argv[4]));',
        nonces,
        nonce,
        String(at),
      );
    expect(use('a'.repeat(32))).toBe(true);
    expect((fs.statSync(nonces).mode & 0o777).toString(8)).toBe('700');
    expect(use('a'.repeat(32))).toBe(false);
    expect(use('b'.repeat(32))).toBe(true);
    // Ten minutes on, both are gone (their files older than five minutes), and reusable.
    expect(use('c'.repeat(32), present + 600)).toBe(true);
    expect(fs.readdirSync(nonces).sort()).toEqual(['c'.repeat(32)]);
  });
});

describe('the plugin as shipped', () => {
  it('is valid PHP, and the settings file is JSON the plugin reads', () => {
    fs.writeFileSync(path.join(dir, 'plugin.php'), PLUGIN_PHP);
    expect(execFileSync('php', ['-l', path.join(dir, 'plugin.php')], { encoding: 'utf8' })).toMatch(
      /No syntax errors/,
    );
    expect(PLUGIN_PHP).toContain("RCUBE_INSTALL_PATH . '.stackdeck-sso/'");
    const text = renderSettings({ key, app: 7, master_user: 'stackdeck', master_pass: 'pw' });
    expect(JSON.parse(text)).toEqual({ key, app: 7, master_user: 'stackdeck', master_pass: 'pw' });
  });

  it('is enabled in a new config, and added once to an older one', () => {
    const fresh = roundcubeConfig({
      db_name: 'rc',
      db_user: 'rc',
      db_password: 'pw',
      des_key: 'x'.repeat(24),
      imap_host: 'localhost:143',
      smtp_host: 'localhost:587',
      product_name: 'Mail',
      dir: '/home/a/apps/rc',
    });
    expect(fresh).toContain("$config['plugins'] = ['stackdeck_sso'];");
    expect(enablePlugin(fresh)).toBeNull();
    const older = fresh.replace("['stackdeck_sso']", "['archive']");
    const added = enablePlugin(older)!;
    expect(added.startsWith(older.trimEnd())).toBe(true);
    expect(enablePlugin(added)).toBeNull();
    // PHP agrees: the older plugins stay, the new one joins them.
    const file = path.join(dir, 'config.inc.php');
    fs.writeFileSync(file, added);
    expect(php('include $argv[2]; echo json_encode($config["plugins"]);', file)).toEqual([
      'archive',
      'stackdeck_sso',
    ]);
    fs.writeFileSync(file, enablePlugin(`<?php\n$config = [];\n?>\n`)!);
    expect(php('include $argv[2]; echo json_encode($config["plugins"]);', file)).toEqual([
      'stackdeck_sso',
    ]);
  });
  it("talks TLS to the server's own mail over loopback without checking the name, elsewhere in full", () => {
    const config = (imap: string, smtp: string) => {
      const file = path.join(dir, 'tls.inc.php');
      fs.writeFileSync(
        file,
        roundcubeConfig({
          db_name: 'rc',
          db_user: 'rc',
          db_password: 'pw',
          des_key: 'x'.repeat(24),
          imap_host: imap,
          smtp_host: smtp,
          product_name: 'Mail',
          dir: '/home/a/apps/rc',
        }),
      );
      return php(
        'include $argv[2]; echo json_encode([$config["smtp_host"], $config["imap_conn_options"] ?? null, $config["smtp_conn_options"] ?? null]);',
        file,
      );
    };
    const relaxed = { ssl: { verify_peer: false, verify_peer_name: false } };
    expect(config('localhost:143', 'tls://localhost:587')).toEqual([
      'tls://localhost:587',
      null,
      relaxed,
    ]);
    expect(config('ssl://127.0.0.1:993', 'localhost:25')).toEqual(['localhost:25', relaxed, null]);
    expect(config('ssl://mail.example.com:993', 'tls://mail.example.com:587')).toEqual([
      'tls://mail.example.com:587',
      null,
      null,
    ]);
  });
});
