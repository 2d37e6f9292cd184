import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authlogs } from '../../resources/authlogs';
import { flag } from '../../resources/define';
import { userSchema, userUpdate } from '../../resources/user-profile';
import { registerBody } from '../../resources/user-security';
import { columnKindOf, fieldInfo, fieldsOf, schemaDefaults } from '../../src/generic/zodFields';

describe('fieldInfo: which input a schema field gets', () => {
  it('maps strings to text inputs and keeps their declared maximum length', () => {
    expect(fieldInfo(userUpdate.shape.City)).toEqual({
      optional: true,
      nullable: false,
      type: { kind: 'text', maxLength: 100 },
    });
  });

  it('recognises email strings and password fields by name', () => {
    expect(fieldInfo(registerBody.shape.email).type).toMatchObject({
      kind: 'text',
      format: 'email',
    });
    expect(fieldInfo(registerBody.shape.password, 'password').type).toMatchObject({
      format: 'password',
    });
    expect(fieldInfo(registerBody.shape.password, 'current_password').type).toMatchObject({
      format: 'password',
    });
    expect(fieldInfo(registerBody.shape.user_name, 'user_name').type).not.toHaveProperty('format');
  });

  it('maps the 0/1-or-boolean `flag` to a switch, through its transform', () => {
    expect(fieldInfo(flag).type).toEqual({ kind: 'boolean' });
    expect(fieldInfo(userUpdate.shape.LoginNotif)).toMatchObject({
      optional: true,
      type: { kind: 'boolean' },
    });
  });

  it('maps enums and literals to selects with their values', () => {
    expect(fieldInfo(userUpdate.shape.two_factor_method).type).toEqual({
      kind: 'select',
      choices: ['email', 'totp'],
    });
    expect(fieldInfo(z.literal('only')).type).toEqual({ kind: 'select', choices: ['only'] });
  });

  it('maps numbers to number inputs with the bounds someone chose', () => {
    expect(fieldInfo(z.number().int().min(1).max(65535)).type).toEqual({
      kind: 'number',
      integer: true,
      min: 1,
      max: 65535,
    });
    expect(fieldInfo(z.coerce.number()).type).toEqual({ kind: 'number', integer: false });
  });

  it('reads through nullable and default wrappers', () => {
    expect(fieldInfo(z.string().nullable())).toMatchObject({ nullable: true, optional: false });
    expect(fieldInfo(z.boolean().default(false))).toMatchObject({
      optional: true,
      type: { kind: 'boolean' },
    });
  });

  it('gives long strings a multi-line input', () => {
    expect(fieldInfo(z.string().max(5000)).type).toMatchObject({ multiline: true });
    expect(fieldInfo(z.string().max(200)).type).not.toHaveProperty('multiline');
  });

  it('says "unknown" for shapes it cannot edit, so no input is invented', () => {
    expect(fieldInfo(z.array(z.string())).type).toEqual({ kind: 'unknown' });
  });
});

describe('fieldsOf', () => {
  it('follows the declared order and skips names the schema lacks', () => {
    expect(fieldsOf(userUpdate, ['TimeZone', 'nope', 'City']).map((f) => f.name)).toEqual([
      'TimeZone',
      'City',
    ]);
  });

  it('lists every field of a filters schema', () => {
    const [outcome] = fieldsOf(authlogs.ops.list.filters!);
    expect(outcome?.name).toBe('outcome');
    expect(outcome?.info.type).toMatchObject({ kind: 'select' });
  });
});

describe('columnKindOf', () => {
  it('shows *_at fields as time stamps', () => {
    expect(columnKindOf('created_at', userSchema.shape.created_at)).toBe('date');
  });
  it('shows flags, enums and ids by their type', () => {
    expect(columnKindOf('is_admin', userSchema.shape.is_admin)).toBe('boolean');
    expect(columnKindOf('outcome', authlogs.schema.shape.outcome)).toBe('choice');
    expect(columnKindOf('id', userSchema.shape.id)).toBe('text');
    expect(columnKindOf('plan_id', userSchema.shape.plan_id)).toBe('text');
    expect(columnKindOf('count', z.number())).toBe('number');
    expect(columnKindOf('email', userSchema.shape.email)).toBe('text');
  });
});

describe('schemaDefaults', () => {
  it('starts a new form with the values the schema supplies, and nothing else', () => {
    const schema = z.object({
      enabled: z.boolean().default(true),
      port: z.number().default(22),
      name: z.string(),
      note: z.string().optional(),
      flagged: flag.optional(),
    });
    expect(schemaDefaults(schema)).toEqual({ enabled: true, port: 22 });
    expect(schemaDefaults(userUpdate)).toEqual({});
  });
});
