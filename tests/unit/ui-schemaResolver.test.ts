import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userUpdate } from '../../resources/user-profile';
import { normalizeForSchema, schemaResolver } from '../../src/generic/schemaResolver';

const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('normalizeForSchema', () => {
  const schema = z.object({
    name: z.string().optional(),
    method: z.enum(['a', 'b']).optional(),
    port: z.number().optional(),
    note: z.string().nullable(),
    kind: z.enum(['x']).nullable(),
  });

  it('keeps "" in text fields: it means "clear it"', () => {
    expect(normalizeForSchema({ name: '' }, schema)).toEqual({ name: '' });
  });

  it('drops empty selects and numbers of optional fields', () => {
    expect(normalizeForSchema({ method: '', port: null }, schema)).toEqual({});
  });

  it('turns an empty nullable select into null', () => {
    expect(normalizeForSchema({ kind: '', note: null }, schema)).toEqual({
      kind: null,
      note: null,
    });
  });

  it('leaves fields outside the schema alone', () => {
    expect(normalizeForSchema({ other: null }, schema)).toEqual({ other: null });
  });
});

describe('schemaResolver', () => {
  it('refuses what the declared schema refuses, with its message, on the field', async () => {
    const resolve = schemaResolver(userUpdate.pick({ user_name: true, Country: true }));
    const result = await resolve({ user_name: 'x', Country: 'Germany' }, undefined, options);
    expect(result.errors.user_name?.message).toBe('At least 2 characters');
    expect(result.errors.Country?.message).toBe('Pick a country');
  });

  it('passes valid values through the schema (trimmed as the server would)', async () => {
    const resolve = schemaResolver(userUpdate.pick({ user_name: true, City: true }));
    const result = await resolve({ user_name: '  Ada  ', City: '' }, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ user_name: 'Ada', City: '' });
  });

  it('says an error about one item of a list at the list input', async () => {
    const resolve = schemaResolver(
      z.object({ databases: z.array(z.number().int('Choose databases of this server')) }),
    );
    const result = await resolve({ databases: ['7'] }, undefined, options);
    expect(result.errors.databases?.message).toMatch(/expected number/i);
    const whole = await resolve({ databases: [1.5] }, undefined, options);
    expect(whole.errors.databases?.message).toBe('Choose databases of this server');
  });
});
