/**
 * Declare-once resources. One declaration per entity drives the server routes and their
 * validation, the react-admin dataProvider, the generic UI pages and menus, and the OpenAPI
 * document. This file holds only types and pure helpers so that the browser bundle, the panel
 * and the agent can all import it: the types in declaration.ts, the checks declarationChecks.ts.
 */
import { z } from 'zod';
import type { ActionDef, ResourceDef, ResourceOps } from './declaration';
import { checkDeclaration } from './declarationChecks';

export * from './declaration';
export * from './templates';
export type { ResourceUi, Widget } from './widgets';

/**
 * A declaration, checked (declarationChecks.ts): one the platform could not mount safely
 * throws as its module loads.
 */
export function defineResource<
  S extends z.ZodObject,
  I extends z.ZodObject = z.ZodObject,
  A extends Record<string, ActionDef> = Record<string, never>,
  O extends ResourceOps = ResourceOps,
  N extends string = string,
>(def: ResourceDef<S, I, A, O, N>): ResourceDef<S, I, A, O, N> {
  // The declaration's own generics are narrower than ResourceDef's defaults (its ops, actions
  // and name are literal types): the checks read them as any declaration.
  checkDeclaration(def as unknown as ResourceDef);
  return def;
}

/** Paging and sorting query every list accepts. */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(25),
  sort: z.string().max(64).optional(),
  order: z.enum(['ASC', 'DESC']).default('DESC'),
});
export type ListQuery = z.infer<typeof listQuery>;

export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int() });
}

/** Boolean flags stored as 0/1 arrive as numbers from SQLite and booleans from clients. */
export const flag = z.union([z.boolean(), z.number().int().min(0).max(1)]).transform(Boolean);

export const id = z.coerce.number().int().positive();
export const isoDate = z.string();
