import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';

/**
 * When an event is raised, and what its subscribers' errors do:
 * - `before`: the owner's change is not done until every subscriber is. They run in order, each
 *   awaited; the first that throws stops the rest and its error is the owner's answer (it may
 *   veto: `app.deleting` refused by a child keeps the app). An event raised inside the owner's
 *   transaction (`{ trx }`) is always `before`: its subscribers' writes are part of the change.
 * - `after`: the owner's change is done (committed). Every subscriber runs, each awaited; one
 *   that throws is logged and the others still run; nothing undoes the owner's change.
 */
export type EventPhase = 'before' | 'after';

/** One event's phase and payload, as its owner declares it in `PanelEvents`. */
export interface EventSpec<Phase extends EventPhase, Payload> {
  phase: Phase;
  payload: Payload;
}
export type Before<Payload> = EventSpec<'before', Payload>;
export type After<Payload> = EventSpec<'after', Payload>;

/**
 * Every lifecycle event, by name. Its owner declares it next to the code that raises it, by
 * declaration merging (`declare module '../../server/events/types' { interface PanelEvents {
 * 'app.deleting': Before<...> } }`), and names its phase in its feature's `emits`: subscribers
 * read the payload's type from here, so they import nothing of the owner.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the owners
export interface PanelEvents {}

export type EventName = keyof PanelEvents & string;
export type PayloadOf<K extends EventName> =
  PanelEvents[K] extends EventSpec<EventPhase, infer P> ? P : never;
export type PhaseOf<K extends EventName> =
  PanelEvents[K] extends EventSpec<infer Phase, unknown> ? Phase : never;

/** What a subscriber gets besides the payload. */
export interface EventContext {
  app: FastifyInstance;
  /** The owner's transaction when it raised the event inside one, else the panel's database. */
  db: Db;
  trx: Transaction<Database> | null;
}

export type Subscriber<K extends EventName> = (
  payload: PayloadOf<K>,
  context: EventContext,
) => Promise<void>;

/** A feature's subscribers (`on` of defineServerFeature), by event name. */
export type Subscribers = { [K in EventName]?: Subscriber<K> };

/** The events a feature owns (`emits` of defineServerFeature), with their phases. */
export type EventDeclarations = { [K in EventName]?: PhaseOf<K> };

export interface EmitOptions {
  /** The owner's transaction: subscribers write in it, and their error rolls it back. */
  trx?: Transaction<Database>;
}
