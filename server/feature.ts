import type { FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely';
import type { Db } from './db/database';
import type { BoundHandlers } from './http/handlers';
import type { AccountChildLoader, ChildLoader } from './http/children';
import type { EventDeclarations, Subscribers } from './events/types';
import type { Job, ScheduleDeclaration } from './jobs/types';
import type { ManagedKind } from './managed/kind';
import type { ServiceDeps } from './serviceDeps';

/**
 * The panel side of a feature folder (`features/<name>/server.ts` exports one as `server`):
 * gathered by the generated list server/features.gen.ts, so no shared file names it.
 */
export interface ServerFeature {
  /** The server implementation of the feature's resources. */
  handlers: readonly BoundHandlers[];
  /** Its migrations by name (`0009_cron`); all run in name order with the panel's own. */
  migrations?: Record<string, Migration>;
  /** Server-managed kinds: their child ids load through the server and the sweeper settles them. */
  managed?: readonly ManagedKind[];
  /** Loaders of other child ids under `{sid}`, by resource name (see server/http/children.ts). */
  children?: Record<string, ChildLoader>;
  /**
   * Loaders of the child ids of the feature's account resources (`parent: 'account'`), by
   * resource name: the row through the `{uid}` user (theirs or their teams'), or nothing.
   */
  accountChildren?: Record<string, AccountChildLoader>;
  /**
   * Repositories and clients of the feature, merged into `app.services` (typed by augmenting
   * `Services`: `declare module '../../server/serviceTypes' { interface Services { ... } }`).
   */
  services?: (deps: ServiceDeps) => object;
  /**
   * What of this feature runs as a system user (apps, jobs, programs), by the user's name: how
   * each is named, for the refusal of a deletion that would leave it broken.
   */
  usersOf?: (db: Db, serverId: number, userName: string) => Promise<string[]>;
  /**
   * The feature's jobs (`defineJob` of server/jobs/define.ts): work that runs later, repeats or
   * outlives a request, enqueued with `app.jobs.enqueue(job, payload, { trx, key })`.
   */
  jobs?: readonly Job[];
  /**
   * Its built-in schedules (`defineSchedule`): cron and time zone, the job and its payload.
   * Each slot runs once however many panels share the database. Work left behind by a panel
   * that stopped (a task no one finishes) is a job on a schedule with `atStart`.
   */
  schedules?: readonly ScheduleDeclaration[];
  /**
   * The lifecycle events this feature raises (server/events), each with its phase: `before`
   * (awaited, a subscriber's error stops the change) or `after` (awaited, errors logged). Their
   * payloads are declared in `PanelEvents` by declaration merging, next to the code raising them.
   */
  emits?: EventDeclarations;
  /**
   * What this feature does when another raises an event (`'app.deleting': removes the app's cron
   * jobs`): the parent never imports its children, they subscribe. Subscribers of one event run
   * in the order of the feature folders' names.
   */
  on?: Subscribers;
  /**
   * Routes outside the JSON API (`/api/v1`): a protocol a program speaks (restic's REST backend,
   * say). Each feature's plugin is registered in its own encapsulated context after the API, so
   * its content-type parsers and hooks stay its own. These routes default to the `public` guard
   * (server/plugins/auth.ts): the plugin authenticates every request itself.
   */
  routes?: FastifyPluginAsync;
}

export const defineServerFeature = (feature: ServerFeature): ServerFeature => feature;
