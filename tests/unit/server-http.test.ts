import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../server/app';
import { maskEmail } from '../../server/handlers/activity';
import { actsForSomeoneElse, type Caller } from '../../server/http/caller';
import { ID_PATTERN } from '../../server/http/ids';
import { fieldErrors } from '../../server/plugins/errors';
import { accountKey } from '../../server/plugins/rateLimit';

describe('fieldErrors', () => {
  it('maps validation issues to field -> first message', () => {
    expect(
      fieldErrors([
        {
          keyword: 'invalid_type',
          instancePath: '/email',
          message: 'Invalid input: expected string, received undefined',
        },
        { keyword: 'too_small', instancePath: '/password', message: 'At least 10 characters' },
        { keyword: 'custom', instancePath: '/password', message: 'second message' },
        {
          keyword: 'invalid_type',
          instancePath: '/address/city',
          message: 'Invalid input: expected string, received number',
        },
        {
          keyword: 'invalid_type',
          instancePath: '/',
          message: 'Invalid input: expected object, received string',
        },
      ]),
    ).toEqual({
      email: 'Required',
      password: 'At least 10 characters',
      'address.city': 'Invalid input: expected string, received number',
      root: 'Invalid input: expected object, received string',
    });
  });
});

describe('the request log', () => {
  const serialize = (url: string) => {
    const options = loggerOptions('info') as {
      serializers: { req: (r: object) => { url: string } };
    };
    return options.serializers.req({ method: 'GET', url, ip: '192.0.2.1' }).url;
  };

  it('masks codes, tokens and secrets in query strings', () => {
    expect(serialize('/api/v1/users/login?otp=123456')).toBe('/api/v1/users/login?otp=***');
    expect(serialize('/x?a=1&code=654321&b=2')).toBe('/x?a=1&code=***&b=2');
    expect(serialize('/x?TOKEN=abc&api_secret=s3cr3t')).toBe('/x?TOKEN=***&api_secret=***');
    expect(serialize('/api/v1/users?em=a@b.c')).toBe('/api/v1/users?em=a@b.c');
  });

  it('logs no headers at all', () => {
    const options = loggerOptions('info') as { serializers: { req: (r: object) => object } };
    const out = options.serializers.req({
      method: 'GET',
      url: '/',
      ip: '192.0.2.1',
      headers: { authorization: 'Bearer x', 'x-api-secret': 'y' },
    });
    expect(out).toEqual({ method: 'GET', url: '/', remoteAddress: '192.0.2.1' });
  });
});

describe('accountKey', () => {
  const req = (parts: { body?: object; query?: object; params?: object }) =>
    parts as unknown as FastifyRequest;

  it('names the account the way each limited call does', () => {
    expect(accountKey(req({ body: { email: ' Ada@Example.COM ' } }))).toBe('ada@example.com');
    expect(accountKey(req({ query: { em: 'Ada@example.com' } }))).toBe('ada@example.com');
    expect(accountKey(req({ body: { uuid: 'ABC' } }))).toBe('abc');
    expect(accountKey(req({ query: { uuid: 'abc' } }))).toBe('abc');
    expect(accountKey(req({ body: { id: 'req-1' } }))).toBe('req-1');
    expect(accountKey(req({ params: { uid: 42 } }))).toBe('42');
    expect(accountKey(req({}))).toBe('none');
    expect(accountKey(req({ body: { email: { $ne: 1 } } }))).toBe('none');
  });
});

describe('acting for someone else', () => {
  type Acting = Omit<Caller, 'row' | 'photoUpdatedAt'>;
  const caller = (over: Partial<Acting> = {}): Acting => ({
    id: 7,
    email: 'a@b.c',
    isAdmin: false,
    isStaff: false,
    planId: 1,
    actorId: null,
    sessionId: 's',
    ...over,
  });

  it('is true for impersonation tokens and for an admin naming another user', () => {
    expect(actsForSomeoneElse(caller(), 7)).toBe(false);
    expect(actsForSomeoneElse(caller(), undefined)).toBe(false);
    expect(actsForSomeoneElse(caller({ actorId: 1 }), 7)).toBe(true);
    expect(actsForSomeoneElse(caller({ isAdmin: true }), 8)).toBe(true);
  });
});

describe('small rules', () => {
  it('path ids are plain positive integers', () => {
    for (const ok of ['1', '42', '999999999999999']) expect(ID_PATTERN.test(ok)).toBe(true);
    for (const bad of ['0', '01', '-1', '1.0', '0x1', '1e3', ' 1', '', '9999999999999999'])
      expect(ID_PATTERN.test(bad), bad).toBe(false);
  });

  it('maskEmail keeps the first letter and the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
  });
});
