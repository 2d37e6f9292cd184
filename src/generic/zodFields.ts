/**
 * Reads a resource's zod schemas to decide which input or column a field gets. Pure, so the
 * mapping is unit-tested without a browser; the React components only switch on the result.
 */
import { z } from 'zod';

export type FieldKind =
  | { kind: 'text'; format?: 'email' | 'url' | 'password'; maxLength?: number; multiline?: boolean }
  | { kind: 'number'; integer: boolean; min?: number; max?: number }
  | { kind: 'boolean' }
  | { kind: 'select'; choices: readonly string[] }
  | { kind: 'unknown' };

export interface FieldInfo {
  /** The field may be left out (optional, nullable or with a default). */
  optional: boolean;
  nullable: boolean;
  type: FieldKind;
}

/** Strings longer than this get a multi-line input. */
const MULTILINE_FROM = 500;

/**
 * Peels optional/nullable/default/pipe wrappers off a schema. A pipe is read from its input
 * side: `flag` (boolean | 0/1, transformed to boolean) is edited as a boolean.
 */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; nullable: boolean } {
  let inner: z.ZodType = schema;
  let optional = false;
  let nullable = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in as z.ZodType;
    } else {
      return { inner, optional, nullable };
    }
  }
}

function kindOf(inner: z.ZodType): FieldKind {
  if (inner instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (inner instanceof z.ZodEnum) return { kind: 'select', choices: inner.options.map(String) };
  if (inner instanceof z.ZodLiteral)
    return { kind: 'select', choices: [...inner.values].map(String) };
  if (inner instanceof z.ZodNumber) {
    return {
      kind: 'number',
      integer: inner.format === 'safeint' || inner.format === 'int32' || inner.isInt === true,
      ...(bounded(inner.minValue) ? { min: inner.minValue } : {}),
      ...(bounded(inner.maxValue) ? { max: inner.maxValue } : {}),
    };
  }
  if (inner instanceof z.ZodEmail) return { kind: 'text', format: 'email', ...lengthOf(inner) };
  if (inner instanceof z.ZodURL) return { kind: 'text', format: 'url', ...lengthOf(inner) };
  if (inner instanceof z.ZodString) {
    const length = lengthOf(inner);
    return {
      kind: 'text',
      ...length,
      ...(length.maxLength && length.maxLength > MULTILINE_FROM ? { multiline: true } : {}),
    };
  }
  if (inner instanceof z.ZodUnion) {
    const options = inner.options.map((option) => kindOf(unwrap(option as z.ZodType).inner));
    // `flag`: boolean or 0/1 is one switch; otherwise the first readable option wins.
    if (options.some((option) => option.kind === 'boolean')) return { kind: 'boolean' };
    return options.find((option) => option.kind !== 'unknown') ?? { kind: 'unknown' };
  }
  return { kind: 'unknown' };
}

/** zod reports the safe-integer range for `.int()`; only a bound someone chose is shown. */
function bounded(value: number | null): value is number {
  return value !== null && Math.abs(value) < Number.MAX_SAFE_INTEGER;
}

function lengthOf(schema: { maxLength: number | null }): { maxLength?: number } {
  return schema.maxLength !== null && Number.isFinite(schema.maxLength)
    ? { maxLength: schema.maxLength }
    : {};
}

/** What kind of input (or column) one schema field gets. */
export function fieldInfo(schema: z.ZodType, name = ''): FieldInfo {
  const { inner, optional, nullable } = unwrap(schema);
  let type = kindOf(inner);
  if (type.kind === 'text' && /(^|_)password$/i.test(name)) type = { ...type, format: 'password' };
  return { optional, nullable, type };
}

/** The fields of an object schema, in the order given (or the schema's own order). */
export function fieldsOf(
  schema: z.ZodObject,
  order?: readonly string[],
): { name: string; info: FieldInfo }[] {
  const shape = schema.shape as Record<string, z.ZodType>;
  const names = order ?? Object.keys(shape);
  return names.flatMap((name) => {
    const field = shape[name];
    return field ? [{ name, info: fieldInfo(field, name) }] : [];
  });
}

/** How a list column shows a value: time stamps, flags and numbers each get their own field. */
export type ColumnKind = 'date' | 'boolean' | 'number' | 'choice' | 'text';

export function columnKindOf(name: string, schema: z.ZodType | undefined): ColumnKind {
  if (/(^|_)at$/.test(name) || name === 'date') return 'date';
  if (!schema) return 'text';
  const { type } = fieldInfo(schema, name);
  if (type.kind === 'boolean') return 'boolean';
  if (type.kind === 'number') return name === 'id' || /_id$/.test(name) ? 'text' : 'number';
  if (type.kind === 'select') return 'choice';
  return 'text';
}

/** Values the schema itself supplies (`.default(...)`), so a new record's form starts with them. */
export function schemaDefaults(schema: z.ZodObject): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const parsed = field.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) defaults[name] = parsed.data;
  }
  return defaults;
}
