import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANONYMOUS, canAccess, guardAllows, type Role } from '../../resources/access';
import {
  MissingPathParamError,
  defineResource,
  fillTemplate,
  flag,
  listQuery,
  templateParams,
  toRoutePattern,
} from '../../resources/define';
import { resources } from '../../resources';

describe('path templates', () => {
  const template = 'cronjobs/{cronId}/servers/{sid}/users/{uid}';

  it('name their parameters in order and become route patterns', () => {
    expect(templateParams(template)).toEqual(['cronId', 'sid', 'uid']);
    expect(templateParams('users')).toEqual([]);
    expect(toRoutePattern(template)).toBe('cronjobs/:cronId/servers/:sid/users/:uid');
  });

  it('are filled with URI-encoded values; a missing one throws', () => {
    expect(fillTemplate(template, { cronId: 3, sid: 'a/b', uid: 7 })).toBe(
      'cronjobs/3/servers/a%2Fb/users/7',
    );
    expect(() => fillTemplate(template, { cronId: 3, sid: 1 })).toThrow(MissingPathParamError);
    expect(() => fillTemplate(template, { cronId: 3, sid: '', uid: 1 })).toThrow(/"sid"/);
  });
});

describe('defineResource', () => {
  const schema = z.object({ id: z.number() });

  it('refuses an operation without a path for it', () => {
    expect(() =>
      defineResource({
        name: 'x',
        label: 'X',
        schema,
        paths: {},
        ops: { list: { guard: 'self' } },
      }),
    ).toThrow('x.list: no path template for this operation');
    expect(() =>
      defineResource({
        name: 'y',
        label: 'Y',
        schema,
        paths: { list: 'y/users/{uid}' },
        ops: { get: { guard: 'self' } },
      }),
    ).toThrow('y.get: no path template');
  });

  it('refuses a query id that is no field of the query', () => {
    const declare = (query: z.ZodObject) =>
      defineResource({
        name: 'z',
        label: 'Z',
        schema,
        paths: {},
        ops: {},
        actions: {
          look: {
            method: 'GET',
            path: 'z/users/{uid}',
            guard: 'self',
            query,
            loads: { sid: 'servers' },
          },
        },
      });
    expect(() => declare(z.object({ server: z.coerce.number() }))).toThrow(
      'z: GET z/users/{uid} loads ?sid= but its query has no such field',
    );
    expect(() => declare(z.object({ sid: z.coerce.number() }))).not.toThrow();
  });

  it('refuses a body id its body does not have, on an action and on a create', () => {
    const onAction = (body: z.ZodObject) =>
      defineResource({
        name: 'z',
        label: 'Z',
        schema,
        paths: {},
        ops: {},
        actions: {
          make: {
            method: 'POST',
            path: 'z/users/{uid}',
            guard: 'self',
            body,
            bodyLoads: { server_id: 'servers' },
          },
        },
      });
    expect(() => onAction(z.object({ server: z.number() }))).toThrow(
      "z: POST z/users/{uid} loads the body's server_id but its body has no such field",
    );
    expect(() => onAction(z.object({ server_id: z.number() }))).not.toThrow();
    // A create without a body of its own takes the resource's input.
    const onCreate = (input: z.ZodObject) =>
      defineResource({
        name: 'z',
        label: 'Z',
        schema,
        input,
        paths: { list: 'z/users/{uid}' },
        ops: { create: { guard: 'self', bodyLoads: { server_id: 'servers' } } },
      });
    expect(() => onCreate(z.object({ name: z.string() }))).toThrow('its body has no such field');
    expect(() => onCreate(z.object({ server_id: z.number() }))).not.toThrow();
  });
});

describe('shared schemas', () => {
  it('listQuery coerces and defaults paging', () => {
    expect(listQuery.parse({})).toEqual({ page: 1, perPage: 25, order: 'DESC' });
    expect(listQuery.parse({ page: '3', perPage: '100', order: 'ASC' })).toMatchObject({
      page: 3,
      perPage: 100,
    });
    expect(listQuery.safeParse({ perPage: '501' }).success).toBe(false);
  });

  it('flag takes booleans and 0/1', () => {
    expect(flag.parse(true)).toBe(true);
    expect(flag.parse(0)).toBe(false);
    expect(flag.parse(1)).toBe(true);
    expect(flag.safeParse(2).success).toBe(false);
    expect(flag.safeParse('true').success).toBe(false);
  });
});

describe('access rules (the UI side of the guards)', () => {
  const user: Role = { signedIn: true, isAdmin: false, isStaff: false };
  const staff: Role = { signedIn: true, isAdmin: false, isStaff: true };
  const admin: Role = { signedIn: true, isAdmin: true, isStaff: false };

  it.each([
    ['public', [true, true, true, true]],
    ['user', [false, true, true, true]],
    ['self', [false, true, true, true]],
    ['staff', [false, false, true, true]],
    ['admin', [false, false, false, true]],
  ] as const)('guard %s admits anonymous, user, staff, admin: %j', (guard, expected) => {
    expect([ANONYMOUS, user, staff, admin].map((r) => guardAllows(guard, r))).toEqual(expected);
  });

  it('canAccess maps react-admin actions onto declared operations', () => {
    expect(canAccess(staff, resources['admin-users'], 'list')).toBe(true);
    expect(canAccess(staff, resources.outbox, 'list')).toBe(false);
    expect(canAccess(admin, resources.outbox, 'show')).toBe(true);
    expect(canAccess(admin, resources.outbox, 'delete')).toBe(false); // not declared
    expect(canAccess(user, resources.users, 'edit')).toBe(true);
    expect(canAccess(user, resources.users, 'create')).toBe(false);
    expect(canAccess(user, undefined, 'list')).toBe(false);
    expect(canAccess(user, resources.users, 'export')).toBe(false);
  });
});
