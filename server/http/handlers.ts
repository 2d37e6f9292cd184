import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ActionDef, ListQuery, ResourceDef } from '../../resources/define';
import type { ServerRow } from '../db/schema';
import type { Caller } from './caller';
import type { AppRow, ChildOf, HolderOf, QueryRowOf } from './children';
import { notFound } from './errors';

export interface Origin {
  ip: string;
  userAgent: string;
}

export interface HandlerContext<Q = unknown, B = unknown, C = unknown, L = Loaded, W = unknown> {
  app: FastifyInstance;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Null only on public routes. */
  caller: Caller | null;
  params: Record<string, number | string>;
  /** The `{uid}` of the path; the guard has already matched it to the caller. */
  uid: number;
  /** The `{sid}` server, found through the tenant check; only on routes with `{sid}`. */
  server: ServerRow;
  /**
   * The child the path names under `{sid}` (`{id}` of a system user, a key), loaded through
   * that server by the request hook: a foreign or missing one never reaches the handler.
   */
  child: C;
  /**
   * The row that holds an account child (`within` of the declaration: a DNS record's zone),
   * loaded through `{uid}` by the request hook before the child; undefined where the route names
   * none.
   */
  within: W;
  /**
   * The web app of a resource under `app` (`{appId}` or `?wsid=`), loaded through the server by
   * the request hook; the item's child was loaded through it. Null elsewhere.
   */
  webapp: AppRow | null;
  /**
   * The rows the query's ids name (`loads` of the declaration: `ctx.loaded.dbuser`), loaded
   * through their owners by the request hook: another tenant's or a missing one never reaches
   * the handler. Optional where the query field is.
   */
  loaded: L;
  query: Q;
  body: B;
  origin: Origin;
}

/** `ctx.loaded` of a route that declares no query ids. */
export type Loaded = Readonly<Record<string, unknown>>;

/** What a declared schema gives after parsing (defaults applied, coerced), or the fallback. */
export type Out<T, Fallback = undefined> = T extends z.ZodType ? z.output<T> : Fallback;
type Record_<R extends ResourceDef> = z.output<R['schema']>;
type OpOf<R extends ResourceDef, K extends string> = K extends keyof R['ops']
  ? NonNullable<R['ops'][K]>
  : never;
type ActionsOf<R extends ResourceDef> = NonNullable<R['actions']>;
/** The names of a resource's declared actions. */
export type ActionName<R extends ResourceDef> = keyof ActionsOf<R> & string;
/** The op's declared answer, or the record. */
type Answer<R extends ResourceDef, K extends string> =
  OpOf<R, K> extends { response: infer X } ? Out<X, Record_<R>> : Record_<R>;
/** The op's declared query (`?dry=true`, `?children=`), or none. */
export type QueryOf<R extends ResourceDef, K extends 'get' | 'create' | 'update' | 'delete'> =
  OpOf<R, K> extends { query?: infer Q }
    ? Out<NonNullable<Q>, Record<string, never>>
    : Record<string, never>;
/** A list's query: paging and sorting, and the declared filters. */
export type ListQueryOf<R extends ResourceDef> = ListQuery &
  (NonNullable<R['ops']['list']> extends { filters?: infer F }
    ? Out<NonNullable<F>, object>
    : object);
/** The kind of row a declared query id names (`'dbusers'` or `{ of: 'dbusers' }`). */
type KindOf<V> = V extends { of: infer K } ? K : V;
/**
 * `ctx.loaded` of an operation: the row of each declared query id, or undefined too where its
 * query field is optional.
 */
export type LoadedOf<D, Q, B = unknown> = (D extends { loads: infer M }
  ? {
      readonly [P in keyof M]:
        | QueryRowOf<KindOf<M[P]>>
        | (P extends keyof Q ? (undefined extends Q[P] ? undefined : never) : undefined);
    }
  : unknown) &
  BodyLoadedOf<D, B> extends infer L
  ? unknown extends L
    ? Loaded
    : L
  : never;
/**
 * `ctx.loaded` of an operation's body ids (`bodyLoads`): the row, or the rows of a list, or
 * undefined too where the body's field is optional or nullable.
 */
type BodyLoadedOf<D, B> = D extends { bodyLoads: infer M }
  ? {
      readonly [P in keyof M]:
        | (P extends keyof B
            ? NonNullable<B[P]> extends readonly unknown[]
              ? QueryRowOf<KindOf<M[P]>>[]
              : QueryRowOf<KindOf<M[P]>>
            : QueryRowOf<KindOf<M[P]>>)
        | (P extends keyof B ? (undefined extends B[P] ? undefined : never) : undefined)
        | (P extends keyof B ? (null extends B[P] ? undefined : never) : never);
    }
  : unknown;
/** The row the hook loaded for the item routes of a resource with children. */
type Child<R extends ResourceDef> = ChildOf<R['name']>;
/** The row holding the resource's child (`within`), where a route names it. */
type Within<R extends ResourceDef> = HolderOf<R['name']> | undefined;
/**
 * The resource's input as validated; a resource that declares none (its `I` is the bare
 * `z.ZodObject` default) is validated against its record schema.
 */
type InputOf<R extends ResourceDef> =
  NonNullable<R['input']> extends infer I
    ? z.ZodObject extends I
      ? Record_<R>
      : Out<I, Record_<R>>
    : never;
/** A create's body as validated: the declared `body`, or the input (the record without one). */
export type CreateBodyOf<R extends ResourceDef> =
  OpOf<R, 'create'> extends { body: infer B } ? Out<B, InputOf<R>> : InputOf<R>;
/** An update's body as validated: the declared `body`, or any part of the input. */
export type UpdateBodyOf<R extends ResourceDef> =
  OpOf<R, 'update'> extends { body: infer B } ? Out<B, Partial<InputOf<R>>> : Partial<InputOf<R>>;
/** The context of a declared action: its query and body as validated. */
export type ActionContext<
  R extends ResourceDef,
  K extends keyof ActionsOf<R>,
  C = Child<R> | undefined,
> = HandlerContext<
  Out<ActionsOf<R>[K]['query'], Record<string, never>>,
  Out<ActionsOf<R>[K]['body']>,
  C,
  LoadedOf<
    ActionsOf<R>[K],
    Out<ActionsOf<R>[K]['query'], Record<string, never>>,
    Out<ActionsOf<R>[K]['body']>
  >,
  Within<R>
>;
/** The handlers of a resource's actions, each typed from its declaration. */
export type ActionHandlers<R extends ResourceDef, C = Child<R> | undefined> = {
  [K in keyof ActionsOf<R>]: ActionsOf<R>[K] extends ActionDef
    ? (ctx: ActionContext<R, K, C>) => Promise<Out<ActionsOf<R>[K]['response'], unknown>>
    : never;
};

/** `ctx.loaded` of an item operation. */
type OpLoaded<R extends ResourceDef, K extends 'get' | 'create' | 'update' | 'delete'> = LoadedOf<
  OpOf<R, K>,
  QueryOf<R, K>,
  K extends 'create' ? CreateBodyOf<R> : K extends 'update' ? UpdateBodyOf<R> : unknown
>;

/** What each declared operation of a resource needs on the server. */
export type ResourceHandlers<R extends ResourceDef> = {
  list: (ctx: HandlerContext<ListQueryOf<R>>) => Promise<{ data: Record_<R>[]; total: number }>;
  get: (
    ctx: HandlerContext<QueryOf<R, 'get'>, unknown, Child<R>, OpLoaded<R, 'get'>>,
  ) => Promise<Answer<R, 'get'>>;
  create: (
    ctx: HandlerContext<QueryOf<R, 'create'>, CreateBodyOf<R>, unknown, OpLoaded<R, 'create'>>,
  ) => Promise<Answer<R, 'create'>>;
  update: (
    ctx: HandlerContext<QueryOf<R, 'update'>, UpdateBodyOf<R>, Child<R>, OpLoaded<R, 'update'>>,
  ) => Promise<Answer<R, 'update'>>;
  delete: (
    ctx: HandlerContext<QueryOf<R, 'delete'>, unknown, Child<R>, OpLoaded<R, 'delete'>>,
  ) => Promise<
    OpOf<R, 'delete'> extends { response: infer X }
      ? Out<X>
      : Partial<Record_<R>> & { id: number | string }
  >;
} extends infer All
  ? { [K in keyof All & keyof R['ops'] as undefined extends R['ops'][K] ? never : K]: All[K] } & {
      actions: ActionHandlers<R>;
    }
  : never;

/**
 * The app of a route under `app` (`{appId}` or `?wsid=`): mount answers 404 before such a
 * handler runs without one, so this never throws there; elsewhere it is a 404 too.
 */
export function webappOf(ctx: Pick<HandlerContext, 'webapp'>): AppRow {
  if (!ctx.webapp) throw notFound();
  return ctx.webapp;
}

export interface BoundHandlers {
  resource: ResourceDef;
  handlers: Partial<Record<'list' | 'get' | 'create' | 'update' | 'delete', unknown>> & {
    actions?: Record<string, unknown>;
  };
}

/**
 * The row the request hook loaded for an action's path id. Actions see `ctx.child` as possibly
 * missing, as not every action of a resource names a row; one that does gets it here, and a
 * route that names none and asks is a programming error, not a 404.
 */
export function loadedChild<C>(child: C | undefined | null): C {
  if (child === undefined || child === null) throw new Error('This route names no row of its own');
  return child;
}

/** Pairs a resource declaration with its server implementation, type-checked against it. */
export function defineHandlers<R extends ResourceDef>(
  resource: R,
  handlers: ResourceHandlers<R>,
): BoundHandlers {
  return { resource, handlers: handlers as BoundHandlers['handlers'] };
}
