import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userSchema } from '../../resources/user-profile';
import { loginResponse } from '../../resources/user-security';
import { responseSerializerCompiler } from '../../server/http/serializer';

const write = (schema: z.ZodType, data: unknown) =>
  JSON.parse(responseSerializerCompiler({ schema })(data) as string) as unknown;

describe('response serializer', () => {
  it('writes only what the schema declares: a stray secret never leaves', () => {
    const schema = z.object({ id: z.number(), email: z.string() });
    expect(
      write(schema, { id: 1, email: 'a@b.c', password_hash: '$argon2id$...', api_secret: 'x' }),
    ).toEqual({
      id: 1,
      email: 'a@b.c',
    });
  });

  it('keeps nulls of nullable fields and nested lists', () => {
    const schema = z.object({
      photo: z.string().nullable(),
      data: z.array(z.object({ id: z.number(), error: z.string().nullable() })),
    });
    expect(write(schema, { photo: null, data: [{ id: 1, error: null, extra: 1 }] })).toEqual({
      photo: null,
      data: [{ id: 1, error: null }],
    });
  });

  it('writes either branch of a union (the login answer)', () => {
    const signedIn = { User: { id: 3, is_admin: false, plan_id: 2 }, Token: 't' };
    expect(write(loginResponse, signedIn)).toEqual(signedIn);
    expect(write(loginResponse, { otp_required: true, method: 'totp' })).toEqual({
      otp_required: true,
      method: 'totp',
    });
  });

  it('picks the union branch a row with extra columns fits, and writes only its fields', () => {
    const record = z.object({ id: z.number(), user_name: z.string() });
    const key = z.object({ public_key: z.string().nullable() });
    const union = z.union([record, key]);
    expect(write(union, { id: 1, user_name: 'deploy', server_id: 9, updated_at: 'x' })).toEqual({
      id: 1,
      user_name: 'deploy',
    });
    expect(write(union, { public_key: 'ssh-ed25519 AAAA' })).toEqual({
      public_key: 'ssh-ed25519 AAAA',
    });
  });

  it('writes a user record field for field', () => {
    const user = {
      id: 1,
      uuid: 'u',
      email: 'a@b.c',
      user_name: 'Ann',
      is_admin: false,
      is_admin_staff: false,
      plan_id: 1,
      photo: null,
      api_key: null,
      two_factor: true,
      two_factor_method: 'totp',
      confirmed: true,
      disabled: false,
      LoginNotif: false,
      Addr_1: '',
      City: 'Oslo',
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect(write(userSchema, { ...user, password_hash: 'never', totp_secret: 'never' })).toEqual(
      user,
    );
  });
});
