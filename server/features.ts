import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely';
import { serverFeatureNames, serverFeatures } from './features.gen';
import { type Declaration, EventBus, type Subscription } from './events/bus';
import { panelEvents } from './events/panel';
import type { EventDeclarations, EventPhase } from './events/types';
import type { AccountChildLoader, ChildLoader } from './http/children';
import type { BoundHandlers } from './http/handlers';
import type { ManagedKind } from './managed/kind';
import { ManagedStore } from './managed/store';
import type { ServiceDeps } from './serviceDeps';

/** The handlers of every feature folder. */
export const featureHandlers: readonly BoundHandlers[] = serverFeatures.flatMap((f) => f.handlers);

/** The migrations of every feature folder, by name. */
export const featureMigrations: Record<string, Migration> = Object.assign(
  {},
  ...serverFeatures.map((f) => f.migrations ?? {}),
);

/** The services of every feature folder, for `app.services`. */
export function featureServices(deps: ServiceDeps): object {
  return Object.assign({}, ...serverFeatures.map((f) => f.services?.(deps) ?? {}));
}

/** The raw routes of the feature folders (`routes`: protocols outside `/api/v1`). */
export const featureRoutes: readonly FastifyPluginAsync[] = serverFeatures.flatMap((f) =>
  f.routes ? [f.routes] : [],
);

/** Every server-managed kind, the panel's own and the features' (the sweeper walks them). */
export const managedKinds: readonly ManagedKind[] = serverFeatures.flatMap((f) => f.managed ?? []);

/**
 * The loader of a feature resource's child ids: its own, or the managed kind's (the row of
 * that key, only on that server).
 */
export function featureChildLoader(resource: string): ChildLoader | undefined {
  for (const feature of serverFeatures) {
    const own = feature.children?.[resource];
    if (own) return own;
    const kind = feature.managed?.find((k) => k.resource === resource);
    if (kind) {
      return (db, server, value) =>
        new ManagedStore(db, kind.table).find(server.id, kind.key ?? 'id', value);
    }
  }
  return undefined;
}

/**
 * The loaders of account resources' child ids, by resource name. Not exported: the request
 * hook reads the app's own copy (`app.rowLoaders.account`), which tests/api/matrix.test.ts
 * swaps on its test app for a loader that ignores the owner, to prove the derived rows catch
 * a hook that stopped checking.
 */
const accountChildLoaders: ReadonlyMap<string, AccountChildLoader> = new Map(
  serverFeatures.flatMap((f) => Object.entries(f.accountChildren ?? {})),
);

/** The loader of an account resource's child ids (`accountChildren` of its feature). */
export function accountChildLoader(resource: string): AccountChildLoader | undefined {
  return accountChildLoaders.get(resource);
}

/** Every account resource's loader, by resource name: a fresh copy for an app to hold. */
export function accountChildLoaderEntries(): [string, AccountChildLoader][] {
  return [...accountChildLoaders];
}

const phases = (declared: EventDeclarations = {}) =>
  Object.entries(declared) as [string, EventPhase][];

/**
 * The event bus of the panel: the events the panel itself and every feature folder declare
 * (`emits`), and every feature's subscribers (`on`), in the folders' order.
 */
export function featureEventBus(app: FastifyInstance): EventBus {
  const declarations: Declaration[] = [
    ...phases(panelEvents).map(([event, phase]) => ({ event, phase, owner: 'panel' })),
    ...serverFeatures.flatMap((f, i) =>
      phases(f.emits).map(([event, phase]) => ({
        event,
        phase,
        owner: serverFeatureNames[i]!,
      })),
    ),
  ];
  const subscriptions: Subscription[] = serverFeatures.flatMap((f, i) =>
    Object.entries(f.on ?? {}).map(([event, run]) => ({
      event,
      feature: serverFeatureNames[i]!,
      run: run as Subscription['run'],
    })),
  );
  return new EventBus(app, declarations, subscriptions);
}
