import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { fieldInfo } from './zodFields';

/**
 * Inputs hold "nothing" as null (numbers) or "" (selects); an optional schema field means
 * "nothing" as absent. Text keeps "": for a profile field it means "clear it".
 */
export function normalizeForSchema(values: FieldValues, schema: z.ZodObject): FieldValues {
  const shape = schema.shape as Record<string, z.ZodType>;
  const out: FieldValues = { ...values };
  for (const [name, value] of Object.entries(values)) {
    const field = shape[name];
    if (!field) continue;
    const { optional, nullable, type } = fieldInfo(field, name);
    const blank =
      (value === null && !nullable) || (value === '' && type.kind !== 'text' && !nullable);
    if (blank && optional) delete out[name];
    else if (value === '' && nullable && type.kind !== 'text') out[name] = null;
  }
  return out;
}

/** react-hook-form resolver from a declared schema: the same rules the server applies. */
export function schemaResolver<T extends FieldValues = FieldValues>(
  schema: z.ZodObject,
): Resolver<T> {
  // The resolver's generics cannot follow a schema picked at run time; the values are checked.
  const resolve = zodResolver(schema as never) as unknown as Resolver<T>;
  return async (values, context, options) => {
    const result = await resolve(normalizeForSchema(values, schema) as T, context, options);
    return { ...result, errors: atTheirInputs(result.errors) } as typeof result;
  };
}

/** The first message under an error (an item of a list: `databases.0`). */
function firstMessage(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string') return message;
  for (const inner of Object.values(error)) {
    const found = firstMessage(inner);
    if (found) return found;
  }
  return null;
}

/**
 * An input shows its field's own message: an error about one item of a list (`databases.0`)
 * is said at the list's input, which would otherwise turn red with nothing said.
 */
export function atTheirInputs<T extends FieldValues>(errors: FieldErrors<T>): FieldErrors<T> {
  const out: Record<string, unknown> = { ...errors };
  for (const [name, error] of Object.entries(errors)) {
    if (typeof (error as { message?: unknown } | undefined)?.message === 'string') continue;
    const message = firstMessage(error);
    if (message) out[name] = { type: 'validate', message };
  }
  return out as FieldErrors<T>;
}
