import { describe, expect, it } from 'vitest';
import { childParam } from '../../resources/define';
import { pluginFile, wpUserChange } from '../../features/wpmanager/names';
import { wpActionArgs } from '../../features/wpmanager/resource';

/** What the WordPress manager lets reach a site, and its `appLocal` path parameter. */
describe('WordPress manager names', () => {
  it('takes a plugin by its file inside the plugins folder only', () => {
    for (const ok of ['akismet/akismet.php', 'hello.php', 'sd-hello/sd-hello.php'])
      expect(pluginFile.safeParse(ok).success, ok).toBe(true);
    for (const bad of [
      '../wp-config.php',
      'a/../../b.php',
      '/etc/x.php',
      '.hidden/x.php',
      'a/b/c.php',
      'akismet',
    ])
      expect(pluginFile.safeParse(bad).success, bad).toBe(false);
  });

  it('wants a role or a password in a change', () => {
    expect(wpUserChange.safeParse({}).success).toBe(false);
    expect(wpUserChange.safeParse({ role: 'editor' }).success).toBe(true);
  });

  it("checks each action's input against that action only", () => {
    const site = { user: 'alice', app: 'blog', web_root: 'public', php_version: '8.2' };
    expect(
      wpActionArgs.safeParse({
        ...site,
        action: 'general.set',
        input: { setting: 'debug', value: true },
      }).success,
    ).toBe(true);
    expect(
      wpActionArgs.safeParse({
        ...site,
        action: 'general.set',
        input: { setting: 'debug', value: 'yes' },
      }).success,
    ).toBe(false);
    expect(wpActionArgs.safeParse({ ...site, action: 'shell', input: {} }).success).toBe(false);
  });

  it('counts an appLocal parameter as no child of the server', () => {
    const template = 'wp-manager/users/{wpUserId}/servers/{sid}/users/{uid}';
    expect(childParam(template, 'app')).toBe('wpUserId');
    expect(childParam(template, 'app', { wpUserId: 'appLocal' })).toBeUndefined();
  });
});
