import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ActionDef, ListQuery, ResourceDef } from '../../resources/define';
import type { ServerRow } from '../db/schema';
import type { Caller } from './caller';
import type { AppRow, ChildOf } from './children';

export interface Origin {
  ip: string;
  userAgent: string;
}

export interface HandlerContext<Q = unknown, B = unknown, C = unknown> {
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
   * The web app of a resource under `app` (`{appId}` or `?wsid=`), loaded through the server by
   * the request hook; the item's child was loaded through it. Null elsewhere.
   */
  webapp: AppRow | null;
  query: Q;
  body: B;
  origin: Origin;
}

type Out<T, Fallback = undefined> = T extends z.ZodType ? z.output<T> : Fallback;
type Record_<R extends ResourceDef> = z.output<R['schema']>;
type OpOf<R extends ResourceDef, K extends string> = K extends keyof R['ops']
  ? NonNullable<R['ops'][K]>
  : never;
/** The op's declared answer, or the record. */
type Answer<R extends ResourceDef, K extends string> =
  OpOf<R, K> extends { response: infer X } ? Out<X, Record_<R>> : Record_<R>;
/** The op's declared query, or none. */
type QueryOf<R extends ResourceDef, K extends string> =
  OpOf<R, K> extends { query: infer Q } ? Out<Q, Record<string, never>> : Record<string, never>;
type Filters<R extends ResourceDef> = R['ops']['list'] extends { filters: infer F }
  ? Out<F, object>
  : object;
/** The row the hook loaded for the item routes of a resource with children. */
type Child<R extends ResourceDef> = ChildOf<R['name']>;
type Input<R extends ResourceDef> = Out<NonNullable<R['input']>, Record<string, unknown>>;
/**
 * The body a create or update gets, as the route validates it (server/http/mount.ts): the op's
 * declared `body`, else the resource's `input` — whole on create, any part of it on update.
 */
type BodyOf<R extends ResourceDef, K extends 'create' | 'update'> =
  OpOf<R, K> extends { body: infer X extends z.ZodType }
    ? z.output<X>
    : K extends 'create'
      ? Input<R>
      : Partial<Input<R>>;

/** What each declared operation of a resource needs on the server. */
export type ResourceHandlers<R extends ResourceDef> = {
  list: (
    ctx: HandlerContext<ListQuery & Filters<R>>,
  ) => Promise<{ data: Record_<R>[]; total: number }>;
  get: (ctx: HandlerContext<QueryOf<R, 'get'>, unknown, Child<R>>) => Promise<Answer<R, 'get'>>;
  create: (
    ctx: HandlerContext<QueryOf<R, 'create'>, BodyOf<R, 'create'>>,
  ) => Promise<Answer<R, 'create'>>;
  update: (
    ctx: HandlerContext<QueryOf<R, 'update'>, BodyOf<R, 'update'>, Child<R>>,
  ) => Promise<Answer<R, 'update'>>;
  delete: (
    ctx: HandlerContext<QueryOf<R, 'delete'>, unknown, Child<R>>,
  ) => Promise<
    OpOf<R, 'delete'> extends { response: infer X }
      ? Out<X>
      : Partial<Record_<R>> & { id: number | string }
  >;
} extends infer All
  ? { [K in keyof All & keyof R['ops'] as undefined extends R['ops'][K] ? never : K]: All[K] } & {
      actions: {
        [K in keyof NonNullable<R['actions']>]: NonNullable<R['actions']>[K] extends ActionDef
          ? (
              ctx: HandlerContext<
                Out<NonNullable<R['actions']>[K]['query'], Record<string, never>>,
                Out<NonNullable<R['actions']>[K]['body']>,
                Child<R> | undefined
              >,
            ) => Promise<Out<NonNullable<R['actions']>[K]['response'], unknown>>
          : never;
      };
    }
  : never;

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
