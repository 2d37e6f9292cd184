/**
 * Declare-once resources. One declaration per entity drives the server routes and their
 * validation, the react-admin dataProvider, the generic UI pages and menus, and the OpenAPI
 * document. This file holds only types and pure helpers so that the browser bundle, the panel
 * and the agent can all import it.
 */
import { z } from 'zod';

/** Who may call an operation. Every route declares one; the server refuses to mount without. */
export type Guard =
  /** Anyone, without a token. */
  | 'public'
  /** Any signed-in caller. */
  | 'user'
  /** The `{uid}` of the path must be the caller; admins may name any user. */
  | 'self'
  /** Admins and admin staff (staff reach Users and Servers only). */
  | 'staff'
  /** Admins only. */
  | 'admin';

export const GUARDS: readonly Guard[] = ['public', 'user', 'self', 'staff', 'admin'];

/** Where a resource lives: decides which path parameters the tenant check resolves. */
export type Scope = 'public' | 'account' | 'server' | 'app' | 'admin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationDef {
  guard: Guard;
  summary?: string;
  /** Refused while an admin acts as the user: password, two-factor, API keys. */
  forbidWhileActing?: boolean;
  /** Rate-limited per account and per client (login, OTP, reset). */
  rateLimited?: boolean;
  /** With guard `self`: admin staff may also name any user (they reach Users and Servers). */
  staffMay?: boolean;
}

export interface ListDef extends OperationDef {
  /** Fields the client may sort by; the first is the default, descending. */
  sort?: readonly string[];
  /** Filter query parameters accepted besides paging and sorting. */
  filters?: z.ZodObject;
  /** Dot path of the array in the response, where the spec fixes one (`tickets.ticket`). */
  dataKey?: string;
}

/** get, create, update, delete: where the spec overloads a route by query, both are declared. */
export interface ItemDef extends OperationDef {
  query?: z.ZodObject;
  /** The answer, when it is not simply the record (`?dry=true` checks, `?rsa=` keys). */
  response?: z.ZodType;
}

export interface WriteDef extends ItemDef {
  /** Body schema; defaults to the resource's `input` schema. */
  body?: z.ZodObject;
}

export interface UpdateDef extends WriteDef {
  method?: 'PUT' | 'PATCH';
}

/** A call that is not plain CRUD: login, key generation, OTP... still declared, still guarded. */
export interface ActionDef extends OperationDef {
  method: HttpMethod;
  /** Template under api/v1, e.g. `auth/gen/users/{uid}`. */
  path: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Success status; 200 unless said. */
  status?: number;
  /** Body size limit in bytes, where a call takes more than the default. */
  bodyLimit?: number;
}

export interface ResourceOps {
  list?: ListDef;
  get?: ItemDef;
  create?: WriteDef;
  update?: UpdateDef;
  delete?: ItemDef;
}

/** A menu entry a resource contributes; the spec's fixed menus live in src/shell/menus.ts. */
export interface ResourceMenuEntry {
  menu: 'profile' | 'admin' | 'main' | 'server' | 'app';
  label: string;
  route: string;
  order: number;
}

export interface ResourceUi {
  /** Columns of the generic list page, in order. */
  listFields?: readonly string[];
  /** Inputs of the generic create/edit form, in order. */
  formFields?: readonly string[];
  recordRepresentation?: string;
}

export interface ResourceDef<
  S extends z.ZodObject = z.ZodObject,
  I extends z.ZodObject = z.ZodObject,
  A extends Record<string, ActionDef> = Record<string, ActionDef>,
  O extends ResourceOps = ResourceOps,
> {
  /** react-admin resource name. */
  name: string;
  label: string;
  scope: Scope;
  /** The record as the API returns it. Fields not in it never leave the server. */
  schema: S;
  /** What a client may write on create/update; privileged fields are never in it. */
  input?: I;
  paths: {
    /** Collection template, e.g. `authlogs/users/{uid}`. */
    list?: string;
    /** Item template, e.g. `cronjobs/{id}/servers/{sid}/users/{uid}`. */
    one?: string;
  };
  /** Path parameter that carries the record id in `paths.one` (default `id`). */
  idParam?: string;
  ops: O;
  actions?: A;
  menu?: readonly ResourceMenuEntry[];
  ui?: ResourceUi;
}

export function defineResource<
  S extends z.ZodObject,
  I extends z.ZodObject = z.ZodObject,
  A extends Record<string, ActionDef> = Record<string, never>,
  O extends ResourceOps = ResourceOps,
>(def: ResourceDef<S, I, A, O>): ResourceDef<S, I, A, O> {
  for (const [op, opDef] of Object.entries(
    def.ops as unknown as Record<string, OperationDef | undefined>,
  )) {
    if (!opDef) continue;
    const template = op === 'list' || op === 'create' ? def.paths.list : def.paths.one;
    if (!template) throw new Error(`${def.name}.${op}: no path template for this operation`);
  }
  return def;
}

/** Names of `{placeholders}` in a path template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** `servers/{sid}/users/{uid}` -> `servers/:sid/users/:uid` (the server's route syntax). */
export function toRoutePattern(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

export class MissingPathParamError extends Error {}

/** Fills a template; every value is URI-encoded, a missing one throws. */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined || value === null || value === '') {
      throw new MissingPathParamError(`missing path parameter "${key}" for ${template}`);
    }
    return encodeURIComponent(String(value));
  });
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
