import type { ListQuery, ResourceDef } from '../../resources/define';
import type { ChildOf } from '../http/children';
import type {
  ActionHandlers,
  BoundHandlers,
  CreateBodyOf,
  HandlerContext,
  ListQueryOf,
  Loaded,
  LoadedOf,
  QueryOf,
  UpdateBodyOf,
} from '../http/handlers';
import { HttpError } from '../http/errors';
import { type Converged, converge } from './converge';
import type { ManagedKind, OpCall } from './kind';
import { ManagedStore, type Where } from './store';
import type { ManagedRow } from './table';
import { whoOf } from '../http/who';

type Ctx<Row, Q = unknown, B = unknown, L = Loaded> = HandlerContext<Q, B, Row, L>;
/** `ctx.loaded` of the update: the rows its query and body ids name. */
type UpdateLoaded<R extends ResourceDef, Update> = LoadedOf<
  NonNullable<R['ops']['update']>,
  QueryOf<R, 'update'>,
  Update
>;
/** `ctx.loaded` of the create: the rows its query and body ids name (`loads`, `bodyLoads`). */
type CreateLoaded<R extends ResourceDef, Create> = LoadedOf<
  NonNullable<R['ops']['create']>,
  QueryOf<R, 'create'>,
  Create
>;

/**
 * What a feature adds to the generic handlers of a server-managed resource. `R` is the
 * declaration: each hook's `ctx.query` is that op's declared query, each action's context its
 * action's query and body, as validated (no casts in the feature).
 */
export interface ManagedHooks<
  Row extends ManagedRow,
  Create,
  Update = Create,
  R extends ResourceDef = ResourceDef,
> {
  /**
   * The new row's own columns from the create body. Clashes the panel can see itself (a name
   * in use, a system user it does not know) throw a field error here, before anything is written.
   */
  create(
    ctx: Ctx<undefined, QueryOf<R, 'create'>, unknown, CreateLoaded<R, Create>>,
    body: Create,
  ): Promise<Record<string, unknown>>;
  /**
   * After the new row is written, before its server is asked: the panel's related rows the
   * apply reads (a database user's grants).
   */
  inserted?(ctx: Ctx<undefined, QueryOf<R, 'create'>>, row: Row, body: Create): Promise<void>;
  /** The changed columns from the update body (the same checks). */
  update?(
    ctx: Ctx<Row, QueryOf<R, 'update'>, unknown, UpdateLoaded<R, Update>>,
    body: Update,
    row: Row,
  ): Promise<Record<string, unknown>>;
  /** The record the API answers with (never a column the schema leaves out). */
  record(row: Row): unknown;
  /**
   * Records that need more than their row (who added a key): made for a whole page at once, in
   * place of `record`, so a list costs one query, not one per row.
   */
  records?(ctx: HandlerContext, rows: Row[]): Promise<unknown[]>;
  /**
   * `POST ...?dry=true`: checks the body as the create would (name free here and on the
   * server) and answers the check; nothing is written.
   */
  dry?(ctx: Ctx<undefined, QueryOf<R, 'create'>>, body: Create): Promise<unknown>;
  /** Before a row is marked for deletion: the panel's own follow-ups (the keys of a user). */
  deleting?(ctx: Ctx<Row, QueryOf<R, 'delete'>>, row: Row): Promise<void>;
  /** List narrowing from the declared filters (`?sys_user=alice`). */
  where?(query: ListQueryOf<R>): Where;
  /** Actions beyond CRUD, handled by the feature (`svjobs/handle`, `?userdel=`). */
  actions?: Partial<ActionHandlers<R, Row | undefined>>;
}

/** The row a managed resource's item routes load (its children entry), by declaration. */
type RowOf<R extends ResourceDef> =
  ChildOf<R['name']> extends infer Row extends ManagedRow ? Row : ManagedRow;

/** The hooks of a declared managed resource, its row, bodies and queries taken from `R`. */
export type ManagedHooksOf<
  R extends ResourceDef,
  Create = CreateBodyOf<R>,
  Update = UpdateBodyOf<R>,
> = ManagedHooks<RowOf<R>, Create, Update, R>;

/** Who to name in the activity log: the admin acting, or a team member, never the owner twice. */
function actorOf(ctx: HandlerContext): number | null {
  const caller = ctx.caller;
  if (!caller) return null;
  return caller.actorId ?? (caller.id !== ctx.server.user_id ? caller.id : null);
}

/** A failed write answers with the server's error (the form shows it at its field). */
function settled<Row>(result: Converged<Row>): Row {
  if (result.state === 'failed') throw result.error;
  return result.row;
}

/**
 * The handlers of a server-managed resource: list and get read the panel's rows (fast, and
 * they work while the server is offline; `?sync=true` adds the read-back's drift); create and
 * update write the desired row first (pending), then ask the server and settle it; delete marks
 * the row deleting and removes it once the server let go. An offline server leaves rows
 * pending for the sweeper, answered 202.
 */
export function defineManagedHandlers<
  R extends ResourceDef,
  Row extends ManagedRow = RowOf<R>,
  Create = CreateBodyOf<R>,
  Update = UpdateBodyOf<R>,
>(resource: R, kind: ManagedKind, hooks: ManagedHooks<Row, Create, Update, R>): BoundHandlers;
export function defineManagedHandlers<Row extends ManagedRow, Create, Update>(
  resource: ResourceDef,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update>,
): BoundHandlers {
  const handlers = managedCrud(resource, kind, hooks);
  const declared = Object.fromEntries(
    Object.entries(handlers).filter(([op]) => resource.ops[op as keyof typeof resource.ops]),
  );
  return { resource, handlers: { ...declared, actions: hooks.actions ?? {} } };
}

/**
 * Every generic handler, declared or not: for a feature whose spec reaches one by another road
 * (`POST svjobs?rebuild=true` changes a job through the update handler).
 */
export function managedHandlers<
  R extends ResourceDef,
  Row extends ManagedRow = RowOf<R>,
  Create = CreateBodyOf<R>,
  Update = UpdateBodyOf<R>,
>(
  resource: R,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update, R>,
): ManagedCrud<Row, Create, Update>;
export function managedHandlers<Row extends ManagedRow, Create, Update>(
  resource: ResourceDef,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update>,
): ManagedCrud<Row, Create, Update> {
  return managedCrud(resource, kind, hooks);
}

type ManagedCrud<Row extends ManagedRow, Create, Update> = ReturnType<
  typeof managedCrud<Row, Create, Update>
>;

function managedCrud<Row extends ManagedRow, Create, Update>(
  resource: ResourceDef,
  kind: ManagedKind,
  hooks: ManagedHooks<Row, Create, Update>,
) {
  const storeOf = (ctx: HandlerContext) => new ManagedStore<Row>(ctx.app.db, kind.table);
  const sortable = resource.ops.list?.sort ?? ['created_at'];
  const says = (action: 'create' | 'update' | 'delete', row: Row) =>
    kind.says?.(action, row) ??
    `${{ create: 'Create', update: 'Change', delete: 'Delete' }[action]} ${kind.noun(row)}`;
  // Under `app`, the rows of the path's app only: its list, and new rows made for it.
  const ofApp = (ctx: HandlerContext): Record<string, number> =>
    resource.parent === 'app' && ctx.webapp ? { webapp_id: ctx.webapp.id } : {};
  const recordsOf = (ctx: HandlerContext, rows: Row[]): Promise<unknown[]> =>
    hooks.records ? hooks.records(ctx, rows) : Promise.resolve(rows.map((r) => hooks.record(r)));
  const answer = async (ctx: HandlerContext, result: Converged<Row>) => {
    const row = settled(result);
    if (result.state === 'waiting') ctx.reply.code(202);
    return (await recordsOf(ctx, [row]))[0];
  };

  return {
    async list(ctx: Ctx<undefined, ListQuery & Record<string, unknown>>) {
      const page = await storeOf(ctx).list(ctx.server.id, ctx.query, sortable, {
        ...hooks.where?.(ctx.query),
        ...ofApp(ctx),
      });
      const data = (await recordsOf(ctx, page.data)) as Record<string, unknown>[];
      if (ctx.query.sync !== 'true' || !kind.readBack) return { data, total: page.total };
      if (!(await ctx.app.agents.isOnline(ctx.server.id)))
        throw new HttpError(409, 'The server is offline: its agent is not connected');
      const op: OpCall = (name, args) => ctx.app.agents.call(ctx.server.id, name, args);
      const drift = await kind.readBack(op, page.data, {
        db: ctx.app.db,
        box: ctx.app.services.box,
      });
      return {
        data: data.map((record, i) => ({ ...record, drift: drift.get(page.data[i]!.id) ?? null })),
        total: page.total,
      };
    },
    async get(ctx: Ctx<Row>) {
      return (await recordsOf(ctx, [ctx.child]))[0];
    },
    async create(ctx: Ctx<undefined, Record<string, unknown>, Create>) {
      if (hooks.dry && ctx.query.dry === 'true') return hooks.dry(ctx, ctx.body);
      const values = await hooks.create(ctx, ctx.body);
      const store = storeOf(ctx);
      const row = await store.insert(ctx.server.id, { ...values, ...ofApp(ctx) });
      await hooks.inserted?.(ctx, row, ctx.body);
      const result = await converge(ctx.app, ctx.server, kind, row, 'apply', {
        message: says('create', row),
        actorId: actorOf(ctx),
        who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      });
      // The server refused the input itself: nothing was made, the form keeps it and shows why.
      if (result.state === 'failed' && result.error.statusCode === 400) await store.remove(row);
      ctx.reply.code(201);
      return answer(ctx, result);
    },
    async update(ctx: Ctx<Row, Record<string, unknown>, Update>) {
      const values = hooks.update ? await hooks.update(ctx, ctx.body, ctx.child) : {};
      const row = await storeOf(ctx).change(ctx.child, values);
      const result = await converge(ctx.app, ctx.server, kind, row, 'apply', {
        message: says('update', row),
        actorId: actorOf(ctx),
        who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      });
      return answer(ctx, result);
    },
    async delete(ctx: Ctx<Row, Record<string, unknown>>) {
      await hooks.deleting?.(ctx, ctx.child);
      const row = await storeOf(ctx).change(ctx.child, {}, 'deleting');
      const result = await converge(ctx.app, ctx.server, kind, row, 'remove', {
        message: says('delete', row),
        actorId: actorOf(ctx),
        who: await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
      });
      const gone = settled(result);
      if (result.state === 'waiting') ctx.reply.code(202);
      return { id: gone.id, status: result.state === 'removed' ? 'deleted' : gone.status };
    },
  };
}
