import type { ParamKind } from '../resources/define';
import type { Guard } from '../resources/define';
import type { Config } from './config';
import type { Db, DialectName } from './db/database';
import type { ServerRow } from './db/schema';
import type { AgentHub } from './agents/hub';
import type { LiveStore } from './agents/live';
import type { EventBus } from './events/bus';
import type { Caller } from './http/caller';
import type { AccountChildLoader, ChildLoader } from './http/children';
import type { BodyIdConfig, QueryIdConfig, QueryRowLoader } from './http/queryIds';
import type { JobQueue } from './jobs/types';
import type { RegisteredRoute } from './plugins/auth';
import type { Services } from './serviceTypes';
import type {} from '@fastify/swagger';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: DialectName;
    services: Services;
    /** Ops on agents (request/ack). */
    agents: AgentHub;
    /** Servers' live info and history. */
    live: LiveStore;
    /** Lifecycle events between features (server/events): raise them with `emit`. */
    events: EventBus;
    /** Work that runs later or on a schedule (server/jobs). */
    jobs: JobQueue;
    /** Every route with its guard, for the test that fails on an unguarded one. */
    registeredRoutes: readonly RegisteredRoute[];
    /**
     * The loaders the request hook finds an account's rows (by resource) and the rows query
     * values name (by the kind of row) with. The app's own: a test swaps one on its test app
     * for a loader that ignores the owner, to prove the derived matrix rows catch it.
     */
    rowLoaders: {
      account: Map<string, AccountChildLoader>;
      query: Map<string, QueryRowLoader>;
    };
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The `{sid}` server, found through the tenant check (routes with `{sid}` only). */
    managedServer: ServerRow | null;
    /**
     * The child the path names (`{id}` under `{sid}`), loaded through that server; on an
     * account resource the row under `{uid}`, loaded through that user.
     */
    child: unknown;
    /** The row holding an account child (`within`: a DNS record's zone), loaded through `{uid}`. */
    within: unknown;
    /** The web app a resource under `app` names (`{appId}` or `?wsid=`), loaded through the server. */
    webapp: unknown;
    /** The rows the query's ids name (`loads`), loaded through their owners; null without. */
    loaded: Record<string, unknown> | null;
  }
  interface FastifyContextConfig {
    guard?: Guard;
    forbidWhileActing?: boolean;
    staffMay?: boolean;
    /** What only the server's owner may do here (a team member gets 403). */
    ownerOnly?: string;
    rateLimited?: boolean;
    resource?: string;
    op?: string;
    /** The route's child parameter and its resource's loader (routes with a child id only). */
    child?: { param: string; kind: ParamKind; load: ChildLoader };
    /** Where a route under `app` names its app, and the loader of apps (resources under `app`). */
    app?: { where: 'path' | 'query'; load: ChildLoader };
    /** The child id a route of an account resource names under `{uid}`, and its resource. */
    owned?: { param: string; kind: ParamKind; resource: string; missing?: string };
    /** The row holding the account child, named in the path (`within` of the declaration). */
    holder?: { param: string; kind: ParamKind; resource: string };
    /** The query values that name a row (`loads`), with what loads each through its owner. */
    queryIds?: QueryIdConfig[];
    /** The body fields that name a row (`bodyLoads`), loaded after the body's validation. */
    bodyIds?: BodyIdConfig[];
  }
}
