import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** `anyOf: [{type: T}, {type: 'null'}]` -> `type: [T, 'null']`, which fast-json-stringify writes without trying branches. */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const schema = Object.fromEntries(
    Object.entries(node as JsonSchema).map(([key, value]) => [key, simplify(value)]),
  ) as JsonSchema;
  // fast-json-stringify writes declared properties only, whatever this says; left in, it makes a
  // union's branch check fail on a row that carries extra columns.
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  const branches = schema.anyOf as JsonSchema[] | undefined;
  if (branches?.length === 2) {
    const nullIndex = branches.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = branches[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === 'string' && !other.anyOf) {
      const { anyOf: _anyOf, ...rest } = schema;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return schema;
}

/** The JSON Schema a response is written with: the zod schema's output side. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
  delete json.$schema;
  return simplify(json) as JsonSchema;
}

/**
 * Writes responses with fast-json-stringify compiled from each route's zod schema. It emits
 * only the properties the schema declares, so a field the declaration leaves out (a password
 * hash, a secret) can never reach a client. Measured against zod's encode-then-stringify: about
 * 100 µs less CPU a request on GET users/{id}; the handlers' return types are already checked
 * against the same schemas at compile time (server/http/handlers.ts).
 */
export function responseSerializerCompiler({ schema }: { schema: unknown }) {
  if (!(schema instanceof z.ZodType)) throw new Error('response schemas are zod schemas');
  return fastJson(responseJsonSchema(schema));
}
