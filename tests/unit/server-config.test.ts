import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:8080',
      adminEmail: null,
      adminPassword: null,
      trustProxy: false,
      tokenTtlSeconds: 86_400,
      authRateLimit: 5,
      logLevel: 'info',
      redisUrl: null,
      outboundAllow: [],
    });
    expect(config.webDir).toBe(path.resolve('dist/web'));
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/srv/stackdeck',
      DATABASE_URL: 'postgresql://u@db/stackdeck',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://panel.example.com///',
      TOKEN_TTL_SECONDS: '60',
      AUTH_RATE_LIMIT: '10',
      WEB_DIR: '',
      OUTBOUND_ALLOW: '127.0.0.1, 10.0.0.0/8',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/srv/stackdeck',
      databaseUrl: 'postgresql://u@db/stackdeck',
      smtpUrl: 'smtp://mail:25',
      publicUrl: 'https://panel.example.com',
      tokenTtlSeconds: 60,
      authRateLimit: 10,
      webDir: null,
      outboundAllow: ['127.0.0.1', '10.0.0.0/8'],
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['10.0.0.1,10.0.0.0/8', '10.0.0.1,10.0.0.0/8'],
  ])('TRUST_PROXY=%j is %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/x' })).toThrow(/postgres:\/\//);
  });

  it.each(['PORT', 'TOKEN_TTL_SECONDS', 'AUTH_RATE_LIMIT'])(
    'refuses a %s that is not a whole number',
    (name) => {
      expect(() => loadConfig({ [name]: 'ten' })).toThrow(new RegExp(name));
      expect(() => loadConfig({ [name]: '-1' })).toThrow(new RegExp(name));
      expect(() => loadConfig({ [name]: '1.5' })).toThrow(new RegExp(name));
    },
  );

  it('takes DNS servers for the mail checks as Node resolves with them, and refuses others', () => {
    expect(
      loadConfig({ MAIL_DNS_RESOLVERS: ' 127.0.0.1:5300, 1.1.1.1 ,[::1]:53,2606:4700::1111' })
        .mailDnsResolvers,
    ).toEqual(['127.0.0.1:5300', '1.1.1.1', '[::1]:53', '2606:4700::1111']);
    expect(loadConfig({}).mailDnsResolvers).toEqual([]);
    for (const bad of ['dns.google', '127.0.0.1:0', '1.1.1.1:70000', '[1.1.1.1]:53', '::1:53:x'])
      expect(() => loadConfig({ MAIL_DNS_RESOLVERS: bad }), bad).toThrow(/MAIL_DNS_RESOLVERS/);
  });
});
