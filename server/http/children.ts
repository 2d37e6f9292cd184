import type { Db } from '../db/database';
import type { ServerRow } from '../db/schema';

/**
 * Loads a child of a server by the id in the path, through that server: the row only if it
 * belongs to it. The request hook calls it after the tenant check found `{sid}`.
 */
export type ChildLoader<T = unknown> = (
  db: Db,
  server: ServerRow,
  /** The path's value: a number for ids, text for names and versions. */
  value: number | string,
) => Promise<T | undefined>;

/**
 * Loads a row of an account by the id in the path, through the `{uid}` user: the row only if
 * that user owns it or it belongs to a team they are in (as the resource's feature defines).
 * The request hook calls it after the guard matched `{uid}` to the caller.
 */
export type AccountChildLoader<T = unknown> = (
  db: Db,
  uid: number,
  /** The path's value: a number for ids, text for uuids and names. */
  value: number | string,
  /** The row that holds it (`within` of the declaration: a record's zone), already loaded. */
  holder?: unknown,
) => Promise<T | undefined>;

/**
 * The rows of the feature folders' children, by resource name: each feature adds its own with
 * `declare module '../../server/http/children' { interface FeatureChildRows { ... } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features
export interface FeatureChildRows {}

/**
 * The rows that hold the features' account children (`within`: a DNS record's zone), by the
 * child's resource name, as the handler gets them in `ctx.within`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features
export interface FeatureHolderRows {}

/** `ctx.within` of a resource: the row holding its child, or nothing. */
export type HolderOf<N extends string> = N extends keyof FeatureHolderRows
  ? FeatureHolderRows[N]
  : undefined;

/** `ctx.child` of a resource: its loaded row, or nothing for a resource without children. */
export type ChildOf<N extends string> = N extends keyof FeatureChildRows
  ? FeatureChildRows[N]
  : undefined;

/** The row of each kind a query id may name (`loads`), as the handler gets it in `ctx.loaded`. */
export type QueryRowOf<K> = K extends 'servers' ? ServerRow : ChildOf<K & string>;

/** The row of a web app, as the apps' feature declares it (resources under `app` get it). */
export type AppRow = FeatureChildRows extends { webstacks: infer R } ? R : never;
