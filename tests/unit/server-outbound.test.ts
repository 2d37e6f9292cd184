import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutboundBlockedError,
  outboundPolicy,
  parseOutboundAllow,
} from '../../server/http/outbound';

describe('outboundPolicy', () => {
  const strict = outboundPolicy([]);

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::7f00:1',
    '::',
    'fd12::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(strict.allows('example.com', address)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1'])(
    'lets %s through',
    (address) => {
      expect(strict.allows('example.com', address)).toBe(true);
    },
  );

  // Every IPv6 form that carries an IPv4 address is judged by that address, or refused.
  it.each([
    // IPv4-mapped (::ffff:0:0/96), in every spelling
    ['::ffff:7f00:1', 'mapped'],
    ['::FFFF:7F00:0001', 'mapped, upper case, leading zeros'],
    ['0:0:0:0:0:ffff:7f00:1', 'mapped, written out'],
    ['0:0:0:0:0:FFFF:127.0.0.1', 'mapped, written out, dotted'],
    ['0::ffff:10.0.0.1', 'mapped, odd compression'],
    ['::0:ffff:192.168.0.1', 'mapped, odd compression'],
    ['::ffff:a9fe:a9fe', 'mapped metadata service'],
    ['::ffff:0.0.0.0', 'mapped unspecified'],
    // IPv4-translated (::ffff:0:0:0/96, RFC 2765)
    ['::ffff:0:7f00:1', 'translated'],
    ['::ffff:0:127.0.0.1', 'translated, dotted'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'translated metadata service'],
    ['::ffff:0:c0a8:101', 'translated private'],
    // IPv4-compatible (::/96, deprecated)
    ['::127.0.0.1', 'compatible'],
    ['::a00:1', 'compatible'],
    // 6to4 (2002::/16)
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:c0a8:101:1::5', '6to4 of 192.168.1.1'],
    ['2002:a9fe:a9fe::', '6to4 of the metadata service'],
    // Teredo (2001::/32): refused whole
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001::7f00:1', 'Teredo'],
    // NAT64, well-known (64:ff9b::/96) and local-use (64:ff9b:1::/48, refused whole)
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::127.0.0.1', 'NAT64 of loopback, dotted'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b:1:fffe::5db8:d822', 'local-use NAT64 of a public address'],
  ])('refuses %s (%s)', (address) => {
    expect(strict.allows('example.com', address)).toBe(false);
    expect(() => strict.checkUrl(`http://[${address}]:8081/`)).toThrow(OutboundBlockedError);
  });

  it.each([
    '::ffff:5db8:d822',
    '0:0:0:0:0:ffff:93.184.216.34',
    '::ffff:0:5db8:d822',
    '2002:5db8:d822::1',
    '64:ff9b::5db8:d822',
    '64:ff9b::93.184.216.34',
  ])('judges %s by the public IPv4 address it carries', (address) => {
    expect(strict.allows('example.com', address)).toBe(true);
  });

  it('allows an embedded address the administrator allows, and a tunnel only by its own net', () => {
    const policy = outboundPolicy(['10.0.0.0/8']);
    for (const address of ['::ffff:0:a00:1', '2002:a00:1::', '64:ff9b::10.1.2.3'])
      expect(policy.allows('x', address)).toBe(true);
    expect(policy.allows('x', '2002:c0a8:101::')).toBe(false);
    expect(outboundPolicy(['2001::/32']).allows('x', '2001::a00:1')).toBe(true);
  });

  it('lets through what the administrator allows, by address, network or name', () => {
    const policy = outboundPolicy(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', 'NS1.Internal.']);
    expect(policy.allows('x', '127.0.0.1')).toBe(true);
    expect(policy.allows('x', '127.0.0.2')).toBe(false);
    expect(policy.allows('x', '10.200.0.9')).toBe(true);
    expect(policy.allows('x', '::ffff:10.200.0.9')).toBe(true);
    expect(policy.allows('x', 'fd00::5')).toBe(true);
    expect(policy.allows('x', '192.168.0.1')).toBe(false);
    expect(policy.allows('ns1.internal', '192.168.0.1')).toBe(true);
  });

  it('refuses a literal address in a URL before connecting', () => {
    expect(() => strict.checkUrl('http://[::ffff:7f00:1]:8081/api')).toThrow(OutboundBlockedError);
    expect(() => strict.checkUrl('http://[::ffff:0:7f00:1]/')).toThrow(
      '::ffff:0:7f00:1 is a private',
    );
    expect(() => strict.checkUrl('http://2130706433/')).toThrow('127.0.0.1 is a private');
    expect(() => strict.checkUrl('https://dns.example.com/')).not.toThrow();
  });
});

describe('the outbound dispatcher', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('inside'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses a name that resolves to a private address at connect time', async () => {
    const policy = outboundPolicy([]);
    const error = await fetch(`http://localhost:${port}/`, { dispatcher: policy.dispatcher }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toBeInstanceOf(OutboundBlockedError);
    expect(((error as Error).cause as Error).message).toBe(
      'localhost (127.0.0.1) is a private or local address; the panel administrator can allow it with OUTBOUND_ALLOW',
    );
    await policy.dispatcher.close();
  });

  it('connects when the name is allowed', async () => {
    const policy = outboundPolicy(['localhost']);
    const res = await fetch(`http://localhost:${port}/`, { dispatcher: policy.dispatcher });
    expect(await res.text()).toBe('inside');
    await policy.dispatcher.close();
  });
});

describe('parseOutboundAllow', () => {
  it('reads names, addresses and networks separated by commas or spaces', () => {
    expect(parseOutboundAllow('127.0.0.1, 10.0.0.0/8 ns1.lan fd00::/8')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'ns1.lan',
      'fd00::/8',
    ]);
    expect(parseOutboundAllow(undefined)).toEqual([]);
  });

  it.each(['10.0.0.0/33', 'ns1.lan/8', 'a/b/c', 'http://x', '::/129'])('refuses %s', (entry) => {
    expect(() => parseOutboundAllow(entry)).toThrow(/^OUTBOUND_ALLOW: /);
  });
});
