import { describe, expect, it } from 'vitest';
import { checkedAddresses, gitHostOptions } from '../../features/gitdeploy/agentHost';
import { literalAddress } from '../../resources/agent/addressPolicy';

/**
 * The agent's check of a repository's host before git connects: a name resolving to loopback
 * (here `localhost`, resolved for real) or a literal private address in any spelling is refused
 * unless the administrator's allow list names it; an allowed https host is pinned.
 */
describe("the agent's check of a repository's host", () => {
  it('reads the spellings of an IPv4 address git and ssh accept', () => {
    expect(literalAddress('2130706433')).toBe('127.0.0.1');
    expect(literalAddress('0x7f.1')).toBe('127.0.0.1');
    expect(literalAddress('0177.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('[::ffff:127.0.0.1]')).toBe('::ffff:127.0.0.1');
    expect(literalAddress('git.example')).toBeNull();
    expect(literalAddress('deadbeef.example')).toBeNull();
  });

  it('refuses a name that resolves to loopback', async () => {
    await expect(checkedAddresses('localhost', [])).rejects.toThrow(
      /localhost \(.+\) is a private or local address/,
    );
  });

  it('refuses literal loopback, link-local and private addresses in any spelling', async () => {
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '169.254.169.254', '10.0.0.1'])
      await expect(checkedAddresses(host, []), host).rejects.toThrow(/private or local/);
  });

  it('lets through what the administrator allows, pinning an https host to its addresses', async () => {
    expect(await checkedAddresses('127.0.0.1', ['127.0.0.0/8'])).toEqual(['127.0.0.1']);
    const options = await gitHostOptions({ transport: 'https', host: 'localhost', port: 8443 }, [
      'localhost',
    ]);
    expect(options[0]).toBe('-c');
    expect(options[1]).toMatch(/^http\.curloptResolve=localhost:8443:(127\.0\.0\.1|\[::1\])/);
    expect(
      await gitHostOptions({ transport: 'ssh', host: '127.0.0.1', port: 22 }, ['127.0.0.1']),
    ).toEqual([]);
  });
});
