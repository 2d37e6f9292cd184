import type { OpArgs, OpName, OpResult } from '../../resources/agent/ops';
import type { SecretBox } from '../auth/secretBox';
import type { Db } from '../db/database';
import type { ManagedRow } from './table';

/**
 * What an apply, remove or read-back may read besides its row: the panel's database, for a
 * kind whose server state draws on related rows (a database user's grants).
 */
export interface KindEnv {
  db: Db;
  /** The install's key, for a column sealed until the server has it (a certificate's key). */
  box: SecretBox;
}

/** Runs an op on the row's server (the managed code supplies it, with the activity log). */
export type OpCall = <N extends OpName>(name: N, args: OpArgs<N>) => Promise<OpResult<N>>;

/** How a row compares with what its server really holds. */
export type Drift = 'missing' | 'changed';

/**
 * A resource whose desired state lives in the panel's database and whose real state lives on
 * a server (cron jobs, programs, databases, sites): the feature says how to put one row on its
 * server and take it off again; the rest (rows, statuses, errors, the sweeper, the read-back,
 * the child loader, the handlers) is the platform's, in server/managed/.
 */
export interface ManagedKind<Row extends ManagedRow = ManagedRow> {
  /** The resource's name in the declarations (its child loader and handlers use it). */
  resource: string;
  /** The feature's table, made with createManagedTable. */
  table: string;
  /** The column the path parameter names (`id`, or `name` for `svjobs/{name}`). */
  key?: string;
  /**
   * The row's own columns from a valid input (booleans as 0/1, renamed fields); the input as it
   * is when absent. The handlers' hooks and the derived tests make rows through it.
   */
  toColumns?(input: Record<string, unknown>): Record<string, unknown>;
  /**
   * Columns the server needs once and the panel keeps no longer (a password's hash, for a row
   * the sweeper may have to apply again): nulled as soon as the server holds the row.
   */
  transient?: readonly string[];
  /** How the activity log names a row: `cron job "nightly" of alice`. */
  noun(row: Row): string;
  /**
   * The activity line of a request, where "Create/Change/Delete <noun>" says it less well
   * ("Change the password of alice"); undefined keeps the default.
   */
  says?(action: 'create' | 'update' | 'delete', row: Row): string | undefined;
  /**
   * Makes the server hold the row as written. Idempotent: the sweeper runs it again for a row
   * left pending by a restart or an offline server, and it must then change nothing twice.
   */
  apply(op: OpCall, row: Row, env: KindEnv): Promise<void>;
  /** Takes the row off its server; one already gone is no error (idempotent too). */
  remove(op: OpCall, row: Row, env: KindEnv): Promise<void>;
  /** The read-back ("sync from server"): rows the server does not hold as written. */
  readBack?(op: OpCall, rows: Row[], env: KindEnv): Promise<Map<number, Drift>>;
}

/** Keeps the feature's row type inside its kind; the registry holds kinds of any row. */
export const defineManagedKind = <Row extends ManagedRow>(kind: ManagedKind<Row>): ManagedKind =>
  kind as unknown as ManagedKind;
