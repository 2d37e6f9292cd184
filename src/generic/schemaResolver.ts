import type { FieldValues, Resolver } from 'react-hook-form';
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
  return (values, context, options) =>
    resolve(normalizeForSchema(values, schema) as T, context, options);
}
