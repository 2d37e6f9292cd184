import type { FastifyInstance } from 'fastify';
import type { EmitOptions, EventContext, EventPhase } from './types';

/** Who raises an event and when (see EventPhase). */
export interface Declaration {
  event: string;
  phase: EventPhase;
  /** The feature folder (or `panel`) that raises it. */
  owner: string;
}

/** One subscriber, with the feature it belongs to (for the log and the order). */
export interface Subscription {
  event: string;
  feature: string;
  run(payload: unknown, context: EventContext): Promise<void>;
}

/**
 * The panel's lifecycle events: each declared once, by its owner; subscribers of each run in the
 * order given (the feature folders' order), each awaited. An event no one declared, or a
 * subscriber to one, is a programming error found when the panel is built.
 */
export class EventBus {
  private readonly declared = new Map<string, Declaration>();
  private readonly subscribers = new Map<string, Subscription[]>();

  constructor(
    private readonly app: FastifyInstance,
    declarations: readonly Declaration[],
    subscriptions: readonly Subscription[],
  ) {
    for (const declaration of declarations) {
      const other = this.declared.get(declaration.event);
      if (other)
        throw new Error(
          `${declaration.event} is declared by ${other.owner} and ${declaration.owner}: an event has one owner`,
        );
      this.declared.set(declaration.event, declaration);
    }
    for (const subscription of subscriptions) {
      if (!this.declared.has(subscription.event))
        throw new Error(
          `${subscription.feature} subscribes to ${subscription.event}, which no feature declares`,
        );
      const list = this.subscribers.get(subscription.event) ?? [];
      list.push(subscription);
      this.subscribers.set(subscription.event, list);
    }
  }

  /** The declaration of an event, and its subscribers' features in the order they run. */
  describe(event: string): { declaration: Declaration; features: string[] } | undefined {
    const declaration = this.declared.get(event);
    if (!declaration) return undefined;
    return {
      declaration,
      features: (this.subscribers.get(event) ?? []).map((s) => s.feature),
    };
  }

  async emit(event: string, payload: unknown, options: EmitOptions = {}): Promise<void> {
    const declaration = this.declared.get(event);
    if (!declaration) throw new Error(`${event} is not a declared event`);
    if (declaration.phase === 'after' && options.trx)
      throw new Error(
        `${event} is an after event: it is raised once the change is committed, never inside its transaction`,
      );
    const context: EventContext = {
      app: this.app,
      db: options.trx ?? this.app.db,
      trx: options.trx ?? null,
    };
    for (const subscription of this.subscribers.get(event) ?? []) {
      if (declaration.phase === 'before') {
        await subscription.run(payload, context);
        continue;
      }
      try {
        await subscription.run(payload, context);
      } catch (err) {
        this.app.log.error(
          { err, event, feature: subscription.feature },
          `a subscriber of ${event} failed`,
        );
      }
    }
  }
}
