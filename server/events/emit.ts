import type { FastifyInstance } from 'fastify';
import type { EmitOptions, EventName, PayloadOf } from './types';

/**
 * Raises an event: its subscribers run in order, each awaited; a `before` event's subscriber
 * error is thrown from here, an `after` event's is logged (server/events/types.ts).
 */
export function emit<K extends EventName>(
  app: FastifyInstance,
  event: K,
  payload: PayloadOf<K>,
  options: EmitOptions = {},
): Promise<void> {
  return app.events.emit(event, payload, options);
}
